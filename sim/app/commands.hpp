// Sub-commands implemented outside main.cpp; each parses its own arguments (argv[1] is the command name)
// and returns the process exit status (2 for bad input, with one message naming the file/line/field).
#pragma once
#include "config/units.hpp"

#include <stdexcept>
#include <string>

namespace pfsim::app {

// --time-limit T (simulated time, any duration unit; "" = no limit): a positive duration or invalid_argument
// naming the option (exit status 2).
inline double time_limit_s(const std::string& text)
{
  if (text.empty())
    return 0;
  double t = 0;
  try {
    t = units::parse_duration_s(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--time-limit: ") + e.what());
  }
  if (t <= 0)
    throw std::invalid_argument("--time-limit: expected a positive duration, got \"" + text + "\"");
  return t;
}

int cmd_replay(int argc, char** argv);       // pfsim replay <trace> --ranks M ...     (sim/app/cmd_replay.cpp)
int cmd_mdworkbench(int argc, char** argv);  // pfsim mdworkbench -I -P -D -R -S ...  (sim/app/cmd_replay.cpp)

}  // namespace pfsim::app
