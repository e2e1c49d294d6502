// The fixed set of file-system operations a rank can issue.
#pragma once
#include <array>
#include <optional>
#include <string>

namespace pfsim {

enum class Op : unsigned char { Create, Open, Close, Stat, Unlink, Mkdir, Rmdir, Readdir, Write, Read };
constexpr int kOpCount = 10;

constexpr std::array<Op, kOpCount> kAllOps{Op::Create, Op::Open,  Op::Close,   Op::Stat,  Op::Unlink,
                                           Op::Mkdir,  Op::Rmdir, Op::Readdir, Op::Write, Op::Read};

const char* op_name(Op op);
std::optional<Op> op_from_name(const std::string& name);

// Updates change the namespace: they take the parent directory lock and write the MDT journal.
constexpr bool is_update(Op op)
{
  return op == Op::Create || op == Op::Unlink || op == Op::Mkdir || op == Op::Rmdir;
}
// Data operations go to an OSS, every other one to the MDS.
constexpr bool is_data(Op op)
{
  return op == Op::Write || op == Op::Read;
}

// A per-operation table of values (service demands, client overheads...).
template <class T> struct PerOp {
  std::array<T, kOpCount> v{};
  T& operator[](Op op) { return v[static_cast<int>(op)]; }
  const T& operator[](Op op) const { return v[static_cast<int>(op)]; }
};

}  // namespace pfsim
