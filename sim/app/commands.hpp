// Sub-commands implemented outside main.cpp; each parses its own arguments (argv[1] is the command name)
// and returns the process exit status (2 for bad input, with one message naming the file/line/field).
#pragma once

namespace pfsim::app {

int cmd_replay(int argc, char** argv);       // pfsim replay <trace> --ranks M ...     (sim/app/cmd_replay.cpp)
int cmd_mdworkbench(int argc, char** argv);  // pfsim mdworkbench -I -P -D -R -S ...  (sim/app/cmd_replay.cpp)

}  // namespace pfsim::app
