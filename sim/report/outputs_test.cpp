// Output files: a run's outputs land together or not at all (OutputBatch over AtomicFile).
#include "report/outputs.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;

namespace {
struct Dir {
  fs::path path;
  Dir()
  {
    char tmpl[] = "/tmp/pfsim-outputs-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~Dir() { fs::remove_all(path); }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator())); }
};
}  // namespace

TEST_CASE("output batch: files appear only at commit; a batch ended by an error leaves nothing", "[outputs]")
{
  Dir d;
  const std::string a = (d.path / "a.csv").string(), b = (d.path / "b.json").string();
  SECTION("committed: both files in place, no temporary left")
  {
    pfsim::OutputBatch batch;
    pfsim::write_file_atomic(a, "x\n");
    pfsim::write_file_atomic(b, "{}\n");
    CHECK_FALSE(fs::exists(a));  // written to a temporary name until the batch commits
    CHECK_FALSE(fs::exists(b));
    batch.commit();
    CHECK(fs::exists(a));
    CHECK(fs::exists(b));
    CHECK(d.entries() == 2);
  }
  SECTION("an exception after the first file: neither file, no temporary")
  {
    try {
      pfsim::OutputBatch batch;
      pfsim::write_file_atomic(a, "x\n");
      throw std::runtime_error("disk full");
    } catch (const std::runtime_error&) {
    }
    CHECK(d.entries() == 0);
  }
  SECTION("without a batch a file is renamed into place at once")
  {
    pfsim::write_file_atomic(a, "x\n");
    CHECK(fs::exists(a));
    CHECK(d.entries() == 1);
  }
}
