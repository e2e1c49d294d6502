#pragma once
// mdtest (IOR 4.x) options that change what runs and that pfsim does not model: pfsim mdtest refuses them, but for
// -W, -x, -Y and -t, which it models (its own options, looked up first: sim/app/main.cpp); a replay of an mdtest
// recording whose command line has any of them warns (it replays the recorded operations, in one directory per rank
// or the shared one, every phase between barriers, without syncs).
#include <map>
#include <string>

namespace pfsim {

// Every such option, with what it does.
inline const std::map<std::string, const char*>& mdtest_not_modelled_options()
{
  static const std::map<std::string, const char*> m{
      {"-z", "tree depth"},
      {"-b", "tree branching factor"},
      {"-I", "items per tree directory"},
      {"-W", "stonewall: phases stop after W seconds"},
      {"-x", "stonewall status file"},
      {"-Y", "sync after each phase"},
      {"-y", "sync after each write"},
      {"-t", "time the unique working directory's overhead"},
      {"-B", "no barriers between phases"},
      {"-c", "collective creates: rank 0 creates every file"},
      {"-k", "use mknod"},
      {"-R", "random stat order"},
      {"-S", "shared file access"},
      {"-s", "stride between neighbour tasks in the tree"},
      {"-l", "last rank count of a rank sweep"},
      {"-f", "first rank count of a rank sweep"},
      {"-p", "pre-iteration delay"},
      {"-Z", "print time instead of rate"},
      {"--allocateBufferOnGPU", "buffers on a GPU"},
      {"--warningAsErrors", "warnings as errors"},
  };
  return m;
}

inline const char* mdtest_not_modelled(const std::string& option)
{
  const auto& m = mdtest_not_modelled_options();
  auto it = m.find(option);
  return it == m.end() ? nullptr : it->second;
}

}  // namespace pfsim
