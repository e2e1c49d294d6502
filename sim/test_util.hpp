// Test-only helpers shared by the *_test.cpp files (not part of pfsim_core).
#pragma once
#include "report/records.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace pfsim::test {

// A fresh temporary directory per test (/tmp/pfsim-test-XXXXXX), removed with everything in it at the end of its
// scope; the files of a test's trace or outputs are written, read and edited there.
struct TempDir {
  std::filesystem::path path;
  TempDir()
  {
    char tmpl[] = "/tmp/pfsim-test-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr)
      throw std::runtime_error("cannot create a temporary directory /tmp/pfsim-test-XXXXXX");
    path = tmpl;
  }
  ~TempDir()
  {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string str() const { return path.string(); }
  // Writes `text` to file `name` here; its path.
  std::string write(const std::string& name, const std::string& text) const
  {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
  // The text of file `name` here ("" when there is none).
  std::string read(const std::string& name) const
  {
    std::ifstream in(path / name);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  // Cuts a file to its first `lines` lines (a truncated trace file).
  void keep_lines(const std::string& name, int lines) const
  {
    std::ifstream in(path / name);
    std::string line, out;
    for (int i = 0; i < lines && std::getline(in, line); ++i)
      out += line + "\n";
    in.close();
    write(name, out);
  }
  // Copies every file of a real run's directory here.
  void copy_files(const std::string& dir) const
  {
    for (const auto& e : std::filesystem::directory_iterator(dir))
      std::filesystem::copy(e.path(), path / e.path().filename());
  }
  // The number of entries here.
  size_t entries() const
  {
    return static_cast<size_t>(
        std::distance(std::filesystem::directory_iterator(path), std::filesystem::directory_iterator()));
  }
  // `text` with `insertion` before the first `needle` in it (which must be there: an edited real file).
  static std::string inserted(const std::string& text, const std::string& needle, const std::string& insertion)
  {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return text.substr(0, at) + insertion + text.substr(at);
  }
  // `text` without the first `piece` (which it must hold).
  static std::string removed(const std::string& text, const std::string& piece)
  {
    const auto at = text.find(piece);
    REQUIRE(at != std::string::npos);
    return text.substr(0, at) + text.substr(at + piece.size());
  }
};

// The bytes the servers' disks (the OSTs) wrote and read in a run.
inline double written_B(const pfsim::RunRecords& r)
{
  double b = 0;
  for (const auto& s : r.servers)
    b += s.data_written_B;
  return b;
}

inline double read_B(const pfsim::RunRecords& r)
{
  double b = 0;
  for (const auto& s : r.servers)
    b += s.data_read_B;
  return b;
}

// The data-path tests' platform: `osts` OSTs writing and reading `disk_Bps`, links of `link_Bps` and
// `link_latency_s`, one rank per node, no client RPC time, MDS services of 1 us (create, open, close), no journal.
inline nlohmann::json data_path_platform(const std::string& name, int osts, double disk_Bps, int rpcs_in_flight,
                                         double dirty_mb, int stripe_count, double link_latency_s = 1e-6,
                                         double link_Bps = 1e12)
{
  nlohmann::json fast = {{"bandwidth", link_Bps}, {"latency", link_latency_s}};
  return {{"name", name},
          {"network", {{"model", "CM02"}, {"client_link", fast}, {"server_link", fast}}},
          {"clients",
           {{"ranks_per_node", 1},
            {"max_rpcs_in_flight", rpcs_in_flight},
            {"max_mod_rpcs_in_flight", 1},
            {"rpc_overhead", 0.0},
            {"max_dirty_mb", dirty_mb}}},
          {"mds",
           {{"cores", 4},
            {"threads", {{"min", 4}, {"max", 4}}},
            {"service", {{"create", 1e-6}, {"open", 1e-6}, {"close", 1e-6}}},
            {"journal", {{"enabled", false}}}}},
          {"oss",
           {{"count", osts},
            {"threads", 32},
            {"rpc_service", 0.0},
            {"disk_write", disk_Bps},
            {"disk_read", disk_Bps},
            {"stripe_count", stripe_count}}}};
}

}  // namespace pfsim::test
