"""Input checks shared by the scripts: one error line and exit status 2 on bad input, no traceback.

Parser        argparse.ArgumentParser whose errors are ONE line ("PROG: error: MESSAGE") with exit status 2
positive_int, pfsim_seed, non_negative_float, finite_float, unit_interval: argparse `type=` converters
check_output(prog, option, path): call before long work; exits 2 when PATH cannot be written as a file
json_number(prog, where, doc, keys, ...): a number of a JSON file, or one error line naming the field
plot_format_problem(path): why a plot file name is not .png, .pdf or .svg (None when it is)
run_pfsim(prog, cmd, ...): runs pfsim; on failure prints pfsim's error line and exits with pfsim's status
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def fail(prog, msg, status=2):
    print(f"{prog}: {msg}", file=sys.stderr)
    sys.exit(status)


def positive_int(s):
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{s}'")
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{s}'")
    return v


def pfsim_seed(s):
    """pfsim's --seed as pfsim takes it: an integer from 0 to 2^63 - 1 (each a draw of its own, 0 included)."""
    top = 2 ** 63 - 1
    try:
        v = int(s)
    except ValueError:
        v = -1
    if not 0 <= v <= top or not s.strip().lstrip("+").isdigit():
        raise argparse.ArgumentTypeError(f"expected an integer in [0, {top}], got '{s}'")
    return v


def finite_float(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a finite number, got '{s}'")
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"expected a finite number, got '{s}'")
    return v


def _float_where(s, ok, expected):
    """float(s) if it parses and ok(value) holds (nan never does), else an argparse error naming `expected`."""
    try:
        v = float(s)
    except ValueError:
        v = float("nan")
    if math.isnan(v) or not ok(v):
        raise argparse.ArgumentTypeError(f"expected {expected}, got '{s}'")
    return v


def non_negative_float(s):
    return _float_where(s, lambda v: math.isfinite(v) and v >= 0, "a finite number >= 0")


def unit_interval(s):
    return _float_where(s, lambda v: 0.0 <= v <= 1.0, "a number between 0 and 1")


def read_measured_json(prog, path, root):
    """A validation case's measured values (JSON) and how errors name the file (relative to ROOT when inside it); a
    file that cannot be read or is not JSON is one error line, exit status 2."""
    where = os.path.relpath(path, root) if path.startswith(root + os.sep) else path
    try:
        with open(path) as f:
            return json.load(f), where
    except (OSError, ValueError, UnicodeDecodeError) as e:
        fail(prog, f"{where}: cannot read the measured values: {getattr(e, 'strerror', None) or e}")


def json_number(prog, where, doc, keys, minimum=None, above=None, whole=False):
    """The number at KEYS (a tuple of object keys, or list indices) in DOC, the JSON read from WHERE; a missing field,
    a value that is no JSON number (a string, true, null), not whole when WHOLE, below MINIMUM or not above ABOVE (a
    value divided by: above=0) is one error line naming WHERE and the field (a.b[2].c), exit status 2."""
    field = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
    v = doc
    for k in keys:
        if isinstance(k, int) and isinstance(v, list) and 0 <= k < len(v):
            v = v[k]
        elif isinstance(k, str) and isinstance(v, dict) and k in v:
            v = v[k]
        else:
            fail(prog, f"{where}: {field}: missing; expected a number")
    expected = "a whole number" if whole else "a number"
    if above is not None:
        expected += f" > {above:g}"
    elif minimum is not None:
        expected += f" >= {minimum:g}"
    ok = (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and
          (not whole or v == int(v)) and (minimum is None or v >= minimum) and (above is None or v > above))
    if not ok:
        fail(prog, f"{where}: {field}: expected {expected}, got {json.dumps(v)[:60]}")
    return int(v) if whole else float(v)


def output_problem(path):
    """Why PATH cannot be written as a file (None when it can): checked before long work starts."""
    if not path:
        return "empty path"
    if os.path.isdir(path):
        return "is a directory; expected a file name"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        shown = os.path.dirname(path) or parent
        if os.path.exists(parent):
            return f"'{shown}' is not a directory"
        return f"directory '{shown}' does not exist"
    if not os.access(parent, os.W_OK):
        return f"directory '{parent}' is not writable"
    if os.path.exists(path) and not os.path.isfile(path):
        return "exists and is not a regular file (a device or FIFO); expected a file name"
    # Permission bits do not tell everything (root, read-only mounts, /proc): create and remove a probe file
    # where write_atomic will create its temporary file.
    try:
        fd, probe = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".probe", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot create a file in directory '{os.path.dirname(path) or parent}': {e.strerror or e}"
    return None


def is_executable_file(path):
    """A file that can be run (os.access alone says yes for a directory)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def check_output(prog, option, path, inputs=()):
    """PATH can be written as OPTION's file and is none of INPUTS ((what, path) of the files the run reads)."""
    problem = output_problem(path)
    if problem:
        fail(prog, f"{option} {path}: {problem}")
    check_spares_inputs(prog, option, path, inputs)


# The plot formats whose bytes depend on the data only (pfsim_plot.save_atomic leaves the date out of PDF and SVG):
# PostScript writes its creation date whatever is asked, the raster formats other than PNG lose detail.
PLOT_FORMATS = ("pdf", "png", "svg")


def plot_format_problem(path):
    """Why PATH's extension is no plot format (None when it is one): checked before the work, not at savefig."""
    ext = os.path.splitext(path)[1][1:].lower()
    if ext in PLOT_FORMATS:
        return None
    if ext in ("ps", "eps"):
        problem = f"'.{ext}' writes its creation date into the file (not the same bytes for the same data)"
    else:
        problem = f"unknown image format '{ext}'" if ext else "no file extension"
    return f"{problem}; expected a file name ending in one of " + ", ".join("." + e for e in PLOT_FORMATS)


def plot_destination(prog, plots, plot, default, name):
    """Where a validation script writes its plot: `plots`/`name` when the runner gives a folder (--plots, created
    here), else --plot (its extension one of PLOT_FORMATS), else `default` (its folder created). A --plots path that
    is a file or a --plot of another format is an error (exit 2)."""
    if plots:
        if os.path.exists(plots) and not os.path.isdir(plots):
            fail(prog, f"--plots {plots}: exists and is not a directory")
        try:
            os.makedirs(plots, exist_ok=True)
        except OSError as e:
            fail(prog, f"--plots {plots}: cannot create it: {e.strerror}")
        return os.path.join(plots, name)
    if plot:
        if plot_format_problem(plot):
            fail(prog, f"--plot {plot}: {plot_format_problem(plot)}")
        return plot
    try:
        os.makedirs(os.path.dirname(default), exist_ok=True)
    except OSError as e:
        fail(prog, f"cannot create {os.path.dirname(default)}: {e.strerror}")
    return default


def temp_beside(path, suffix=".tmp"):
    """A new file of a unique name in PATH's directory (never a file the user has there, nor another run's),
    for writing PATH and renaming it into place; returns its name."""
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=suffix,
                               dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    mask = os.umask(0)  # mkstemp makes it 0600: give it the mode a plain open() would (0666 less the umask)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)
    return tmp


def write_atomic(path, text):
    """Writes `text` under a temporary name and renames it into place (nothing half-written on failure)."""
    tmp = temp_beside(path)
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp) and not os.path.isdir(tmp):
            os.unlink(tmp)
        raise


def write_atomic_all(files):
    """Writes every (path, text) under a temporary name, then renames them into place one after the other: a failure
    while writing leaves none of them (the renames, which do not fail on one file system, come last)."""
    temps = []
    try:
        for path, text in files:
            tmp = temp_beside(path)
            temps.append(tmp)
            with open(tmp, "w") as f:
                f.write(text)
        for (path, _), tmp in zip(files, temps):
            os.replace(tmp, path)
    except BaseException:
        for tmp in temps:
            if os.path.lexists(tmp) and not os.path.isdir(tmp):
                os.unlink(tmp)
        raise


def check_spares_inputs(prog, option, path, inputs):
    """An output must not replace a file the run reads: INPUTS is a list of (what, path)."""
    if not path or not os.path.exists(path):
        return
    for what, inp in inputs:
        if inp and os.path.exists(inp) and os.path.samefile(path, inp):
            fail(prog, f"{option} {path} is {what}, which this run reads; an output never replaces an input "
                       "(write it elsewhere)")


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the script is, as Ctrl-C is: its `finally` blocks remove what it staged
    (run_pfsim stops its pfsim with SIGTERM). args[0] is the signal number."""


def stop_on_signals():
    """Makes SIGTERM and SIGHUP stop the script as Ctrl-C does (by default they end it at once, leaving its staging
    folders behind). Exit with status 128 + stopped_signal(e) after handling the KeyboardInterrupt. A signal the
    script was started to ignore (nohup) stays ignored; once stopped, further signals are ignored so that the
    cleanup runs to its end."""
    import signal
    watched = [s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) if signal.getsignal(s) is not signal.SIG_IGN]

    def handler(sig, frame):
        for s in watched:
            signal.signal(s, signal.SIG_IGN)
        raise KeyboardInterrupt() if sig == signal.SIGINT else Stopped(sig)
    for sig in watched:
        signal.signal(sig, handler)


def end_child(p):
    """Stops a child of a stopped script: SIGTERM (a pfsim sweep then removes its temporary folder, a script its
    scratch), SIGKILL if it is still there 10 s later (it may have been started with SIGTERM ignored). A child that a
    terminal's Ctrl-C reached already is stopping anyway; SIGTERM then changes nothing."""
    p.terminate()
    try:
        p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()


def stopped_signal(e):
    """The signal number a KeyboardInterrupt stands for (SIGINT for Ctrl-C)."""
    import signal
    return e.args[0] if isinstance(e, Stopped) and e.args else int(signal.SIGINT)


def pfsim_error_line(stderr):
    lines = [l.strip() for l in (stderr or "").splitlines() if l.strip()]
    return lines[-1] if lines else "(no message)"


def run_pfsim(prog, cmd, quiet_stderr=True, **kw):
    """Runs pfsim; on a non-zero exit prints pfsim's error line (its last stderr line) and exits with pfsim's
    status (2 for bad input; 1 when it was killed by a signal). Returns the CompletedProcess otherwise (its stdout
    pfsim's when called with stdout=subprocess.PIPE, else None)."""
    try:
        p = subprocess.Popen(cmd, stderr=subprocess.PIPE if quiet_stderr else None, text=True, **kw)
    except OSError as e:
        fail(prog, f"cannot run {cmd[0]}: {e.strerror}")
    try:
        out, err = p.communicate()
    except KeyboardInterrupt:  # stopped: pfsim stops too
        end_child(p)
        raise
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    if r.returncode != 0:
        status = r.returncode if r.returncode > 0 else 1
        what = pfsim_error_line(r.stderr) if quiet_stderr else "see its message above"
        fail(prog, f"pfsim {cmd[1] if len(cmd) > 1 else ''} failed (exit status {r.returncode}): {what}", status)
    return r


def pfsim_arg(doc):
    """The pfsim binary a test script is given as its one argument (ctest passes it); --help prints the script's
    docstring, a missing or non-executable binary is a usage error (exit 2)."""
    prog = os.path.basename(sys.argv[0])
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(doc.strip())
        sys.exit(0)
    if len(sys.argv) != 2:
        fail(prog, "usage: " + prog + " PATH/TO/pfsim")
    if not is_executable_file(sys.argv[1]):
        fail(prog, f"{sys.argv[1]}: not an executable pfsim binary (usage: {prog} PATH/TO/pfsim)")
    return sys.argv[1]


class Checks:
    """A test script's checks: `check(cond, what)` prints "ok" or "FAIL" and the check; `finish(name)` prints the
    count and exits 1 when one failed (0 otherwise)."""

    def __init__(self):
        self.failures = []

    def __call__(self, cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.failures.append(what)

    def finish(self, name=""):
        label = f"{name} " if name else ""
        if self.failures:
            print(f"{len(self.failures)} {label}check(s) failed")
            sys.exit(1)
        print(f"all {label}checks passed")

