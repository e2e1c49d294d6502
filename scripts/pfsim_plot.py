"""Plot helpers shared by the validation runner and the analysis scripts (matplotlib, PNG, headless)."""
import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "pfsim"  # SVG ids from a fixed salt: the same plot gives the same bytes
import matplotlib.pyplot as plt  # noqa: E402


def rate_grid(path, title, rows, metrics, xlabel="ranks (client nodes = ranks / 16)"):
    """rows: list of (row_name, {metric: {"measured": [(x, y)], "lines": [(label, style, [(x, y)])]}}).
    One row of subplots per series, one column per metric; measured points as markers, simulated as lines."""
    fig, axes = plt.subplots(len(rows), len(metrics), figsize=(4.2 * len(metrics), 3.4 * len(rows)), squeeze=False)
    for i, (row_name, data) in enumerate(rows):
        for j, metric in enumerate(metrics):
            ax = axes[i][j]
            d = data.get(metric, {})
            meas = d.get("measured", [])
            if meas:
                ax.plot([x for x, _ in meas], [y for _, y in meas], "ko", label="measured", zorder=3)
            for label, style, pts in d.get("lines", []):
                pts = sorted(pts)
                ax.plot([x for x, _ in pts], [y for _, y in pts], style, label=label)
            ax.set_xscale("log", base=2)
            ax.set_title(f"{row_name}: {metric}")
            ax.set_xlabel(xlabel)
            ax.set_ylabel("ops/s")
            ax.set_ylim(bottom=0)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_atomic(fig, path)
    plt.close(fig)


def save_atomic(fig, path, **kw):
    """Saves the figure under a temporary name in the same directory and renames it into place (format from
    PATH's extension, PNG when it has none)."""
    import os
    from cli_common import temp_beside
    fmt = os.path.splitext(path)[1][1:].lower() or "png"
    tmp = temp_beside(path)
    # No creation date in PDF/SVG metadata: the same inputs give the same bytes (PNG has none; PostScript keeps
    # its date whatever is asked).
    meta = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}.get(fmt)
    if meta is not None and "metadata" not in kw:
        kw["metadata"] = meta
    try:
        fig.savefig(tmp, dpi=kw.pop("dpi", 110), format=fmt, **kw)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


if __name__ == "__main__":
    import sys

    print("pfsim_plot.py: a library of plot helpers for scripts/validate and the analysis scripts, not a command "
          "(plots: scripts/validate, scripts/plot_latency_cdf.py)", file=sys.stderr)
    sys.exit(2)
