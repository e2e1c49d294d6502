#include "model/ops.hpp"

namespace pfsim {

const char* op_name(Op op)
{
  switch (op) {
    case Op::Create:
      return "create";
    case Op::Open:
      return "open";
    case Op::Close:
      return "close";
    case Op::Stat:
      return "stat";
    case Op::Unlink:
      return "unlink";
    case Op::Mkdir:
      return "mkdir";
    case Op::Rmdir:
      return "rmdir";
    case Op::Readdir:
      return "readdir";
    case Op::Write:
      return "write";
    case Op::Read:
      return "read";
  }
  return "?";
}

std::optional<Op> op_from_name(const std::string& name)
{
  for (Op op : kAllOps)
    if (name == op_name(op))
      return op;
  return std::nullopt;
}

}  // namespace pfsim
