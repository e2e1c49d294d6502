// Small pieces every trace importer uses to read text and to report what it could not read (trace.cpp for the
// metadata traces, io_trace.cpp for the data-path ones): one message form, "FILE:LINE: what was expected".
#pragma once
#include "config/reader.hpp"

#include <cstdio>
#include <string>

namespace pfsim::textin {

[[noreturn]] inline void fail(const std::string& file, size_t line, const std::string& what)
{
  throw config::ConfigError(file + ":" + std::to_string(line) + ": " + what);
}

// Input text quoted in a message: at most `max` characters (then "..."), bytes that are not printable ASCII
// escaped (\x00), so that a message stays one short line whatever the file holds.
inline std::string excerpt(const std::string& text, size_t max = 60)
{
  std::string out = "\"";
  size_t shown = 0;
  for (unsigned char c : text) {
    if (shown == max) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char esc[8];
      std::snprintf(esc, sizeof esc, c == '"' || c == '\\' ? "\\%c" : "\\x%02x", c);
      out += esc;
    }
    ++shown;
  }
  return out + "\"";
}

// A decimal number as the tools print it: [+-]digits[.digits][e[+-]digits]. strtod alone would also take
// hexadecimal ("0x10", "0x1p3"), "inf", "nan" and leading white space.
inline bool is_decimal(const std::string& s)
{
  auto digit = [&](size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
  size_t i = 0, mantissa = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    ++i;
  for (; digit(i); ++i)
    ++mantissa;
  if (i < s.size() && s[i] == '.')
    for (++i; digit(i); ++i)
      ++mantissa;
  if (mantissa == 0)
    return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    if (!digit(i))
      return false;
    while (digit(i))
      ++i;
  }
  return i == s.size();
}

// A CSV header whose column has white space around its name ("time,runtime " from an editor or a spreadsheet): the
// tools write none, and no importer trims it (a name with it is another name), so this is said rather than "missing
// column 'runtime'". `expected`: the header the importer wants, for the message.
inline void check_header_blanks(const std::string& file, const std::string& line, const std::string& expected)
{
  // A Windows line ending is the line's, not the last column's (the importers drop it).
  const std::string header = !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
  size_t from = 0;
  for (;;) {
    const size_t comma = header.find(',', from);
    const std::string col = header.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const size_t first = col.find_first_not_of(" \t\r"), last = col.find_last_not_of(" \t\r");
    if (first != std::string::npos && (first > 0 || last + 1 < col.size()))
      fail(file, 1, "unexpected white space in column " + excerpt(col) + " of the header " + excerpt(header) +
                        ": expected " + expected + " without spaces");
    if (comma == std::string::npos)
      return;
    from = comma + 1;
  }
}

// Skips a UTF-8 byte order mark at the start of a file's first line (some editors and spreadsheet exports write
// one; the tools never do).
inline void strip_bom(std::string& line)
{
  if (line.rfind("\xEF\xBB\xBF", 0) == 0)
    line.erase(0, 3);
}

}  // namespace pfsim::textin
