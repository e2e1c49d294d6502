// Timings a rank cannot have produced, counted for one summary warning per trace, by the importers whose tools run
// a rank's operations one after another (trace.cpp: md-real-io / md-workbench latency files; io_trace.cpp: IOR's
// per-op files): a row that starts before the row above it in the same rank's file, and an operation that starts
// before the rank's previous operation ended (md-workbench: once the files of a phase are merged by time). Clocks
// are noisy at the microsecond level: only differences above kTimingTolerance count. The replay goes on with a think
// time of 0 before such an operation.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pfsim::textin {

constexpr double kTimingTolerance = 1e-3;  // seconds

class TimingCheck {
 public:
  uint32_t file_id(const std::string& path)
  {
    if (files_.empty() || files_.back() != path)
      files_.push_back(path);
    return static_cast<uint32_t>(files_.size() - 1);
  }
  // `by` seconds of overlap or backwards step at line `line` of file `file`.
  void overlap(double by, uint32_t file, uint32_t line) { overlaps_.add(by, {file, line}); }
  void backwards(double by, uint32_t file, uint32_t line) { backwards_.add(by, {file, line}); }
  // Checks that the rows of one rank's file (or its part of a concatenated file) are in time order.
  void check_order(const std::vector<std::pair<float, float>>& rows, size_t begin, size_t end, uint32_t file)
  {
    for (size_t i = begin + 1; i < end; ++i) {
      double back = static_cast<double>(rows[i - 1].first) - rows[i].first;
      if (back > kTimingTolerance)
        backwards(back, file, static_cast<uint32_t>(i + 2));
    }
  }
  // The summary warning ("" when all timings are consistent); `order`: what the replay does with rows out of order.
  std::string warning(const std::string& dir, const std::string& order = "the replay orders every phase by start time") const
  {
    if (overlaps_.n == 0 && backwards_.n == 0)
      return "";
    std::string w = dir + ": inconsistent timings, replayed anyway:";
    if (overlaps_.n > 0)
      w += " " + std::to_string(overlaps_.n) + " operations start more than 1 ms before the previous operation of "
           "their rank ended" + overlaps_.describe("overlap", files_) + "; the replay gives them no think time";
    if (backwards_.n > 0)
      w += std::string(overlaps_.n > 0 ? ";" : "") + " " + std::to_string(backwards_.n) + " rows start more than "
           "1 ms before the row above them in their rank's file" + backwards_.describe("step back", files_) + "; " +
           order;
    return w;
  }

 private:
  struct Where {
    uint32_t file;
    uint32_t line;
  };
  struct Count {
    uint64_t n = 0;
    double max = 0;
    Where first{}, largest{};
    void add(double by, Where w)
    {
      if (n++ == 0)
        first = w;
      if (by > max) {
        max = by;
        largest = w;
      }
    }
    std::string describe(const char* what, const std::vector<std::string>& files) const
    {
      auto at = [&](Where w) {
        return std::filesystem::path(files[w.file]).filename().string() + ":" + std::to_string(w.line);
      };
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.3f ms", max * 1e3);
      return std::string(" (largest ") + what + " " + ms + " at " + at(largest) + ", first at " + at(first) + ")";
    }
  };
  std::vector<std::string> files_;
  Count overlaps_, backwards_;
};

}  // namespace pfsim::textin
