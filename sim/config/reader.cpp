#include "config/reader.hpp"

#include <filesystem>
#include <set>
#include <vector>

#include "config/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace pfsim::config {

namespace {

// SAX handler that only follows the field path, to say where a number that does not fit a double is (the DOM
// parser's out_of_range exception has neither the position nor the field).
class OverflowLocator : public nlohmann::json_sax<nlohmann::json> {
public:
  std::string field;      // dotted path of the value that failed ("" at the top level)
  size_t position = 0;    // bytes read when the parser stopped (just after the number)
  std::string token;      // the number as written
  bool located = false;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override
  {
    path_.push_back({false, "", 0});
    return true;
  }
  bool key(string_t& k) override
  {
    path_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override
  {
    path_.push_back({true, "", 0});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t pos, const std::string& last_token, const nlohmann::detail::exception& e) override
  {
    if (e.id == 406) {  // number overflow
      position = pos;
      token = last_token;
      located = true;
      for (const auto& level : path_)
        field += level.array ? "[" + std::to_string(level.index) + "]"
                             : std::string(field.empty() ? "" : ".") + level.key;
    }
    return false;
  }

private:
  struct Level {
    bool array;
    std::string key;
    size_t index;
  };
  std::vector<Level> path_;
  bool value()
  {
    if (!path_.empty() && path_.back().array)
      path_.back().index++;
    return true;
  }
  bool close()
  {
    path_.pop_back();
    return value();
  }
};

// "line L, column C" of the byte offset `pos` in `text` (both 1-based).
std::string line_and_column(const std::string& text, size_t pos)
{
  pos = std::min(pos, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < pos; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return "line " + std::to_string(line) + ", column " + std::to_string(pos - line_start + 1);
}

// A value as a message shows it: a number as JSON writes it (the shortest form that reads back: 1e+10, not
// 10000000000.0), a string quoted, except a number's text beyond a double's range (a --set's 1e400), shown as written.
std::string shown(const nlohmann::json& v)
{
  if (v.is_number_float()) {
    const double x = v.get<double>();
    for (int digits = 1; digits <= 17; ++digits) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.*g", digits, x);
      if (std::strtod(buf, nullptr) == x)
        return buf;
    }
  }
  return v.dump();
}

// Whether `v` is the text of a JSON number too large for a double ("1e400"): nlohmann refuses to parse it, and a --set
// then passes it on as a string. A numeric field reports it against its range, as any other number out of it.
bool beyond_double(const nlohmann::json& v)
{
  if (!v.is_string())
    return false;
  const std::string& t = v.get_ref<const std::string&>();
  size_t i = t.size() > 0 && t[0] == '-' ? 1 : 0;
  const auto digits = [&] {
    const size_t from = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
      ++i;
    return i > from;
  };
  if (!digits())
    return false;
  if (i < t.size() && t[i] == '.' && (++i, !digits()))
    return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-'))
      ++i;
    if (!digits())
      return false;
  }
  return i == t.size() && std::isinf(std::strtod(t.c_str(), nullptr));
}

}  // namespace

long long json_integer(const nlohmann::json& v, long long min, long long max)
{
  const auto refuse = [&](const std::string& got) -> long long {
    throw std::invalid_argument("expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                                "], got " + got);
  };
  if (beyond_double(v))
    return refuse(v.get<std::string>());
  if (v.is_number_unsigned()) {  // (above 2^63 - 1 it does not fit a long long)
    const auto u = v.get<unsigned long long>();
    if (max < 0 || u > static_cast<unsigned long long>(max) || static_cast<long long>(u) < min)
      return refuse(v.dump());
    return static_cast<long long>(u);
  }
  if (v.is_number_integer()) {
    const auto x = v.get<long long>();
    return x < min || x > max ? refuse(v.dump()) : x;
  }
  if (v.is_number_float()) {  // whole (2e2, 200.0, 1e10) and within the range; a fraction is not an integer
    const double d = v.get<double>();
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!std::isfinite(d) || d != std::floor(d) || d < -kTwo63 || d >= kTwo63)
      return refuse(shown(v));
    const auto x = static_cast<long long>(d);
    return x < min || x > max ? refuse(shown(v)) : x;
  }
  return refuse(v.dump());
}

nlohmann::json parse_json_strict(const std::string& text, const std::string& where, const std::string& field_prefix)
{
  // A key given twice in one object would silently keep the last value (nlohmann keeps it): refused.
  std::vector<std::set<std::string>> keys;
  std::string duplicate;
  auto check_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    switch (event) {
    case nlohmann::json::parse_event_t::object_start:
      keys.emplace_back();
      break;
    case nlohmann::json::parse_event_t::object_end:
      keys.pop_back();
      break;
    case nlohmann::json::parse_event_t::key:
      if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second && duplicate.empty())
        duplicate = parsed.get<std::string>();
      break;
    default:
      break;
    }
    return true;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, check_keys);
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(where + ": not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range (1e400): say which field and where, as for any other bad value.
    OverflowLocator locate;
    nlohmann::json::sax_parse(text, &locate);
    if (!locate.located)
      throw ConfigError(where + ": a number is out of range (" + e.what() + ")");
    std::string field = locate.field;
    if (!field_prefix.empty())
      field = field.empty() ? field_prefix : field_prefix + (field.front() == '[' ? "" : ".") + field;
    const size_t start = locate.position >= locate.token.size() ? locate.position - locate.token.size() : 0;
    throw ConfigError(where + ": " + (field.empty() ? std::string() : "field '" + field + "': ") + "number " +
                      locate.token + " at " + line_and_column(text, start) +
                      " is out of range: expected a number within a double's range (about 1.8e308)");
  }
  if (!duplicate.empty())
    throw ConfigError(where + ": key '" + duplicate + "' appears twice in one object");
  return j;
}

bool set_gives_field(const std::string& set, const std::string& field, bool only_null)
{
  const auto eq = set.find('=');
  if (eq == std::string::npos)
    return false;
  const std::string path = set.substr(0, eq);
  if (field != path && field.rfind(path + ".", 0) != 0)
    return false;
  nlohmann::json v = nlohmann::json::parse(set.substr(eq + 1), nullptr, false);
  if (field == path)  // the value itself (a bare word such as 5us does not parse as JSON: not null)
    return !only_null || v.is_null();
  for (size_t at = path.size() + 1; at <= field.size();) {  // down to the field
    const size_t dot = std::min(field.find('.', at), field.size());
    const std::string key = field.substr(at, dot - at);
    if (!v.is_object() || !v.contains(key))
      return false;
    nlohmann::json next = v[key];
    v = std::move(next);
    at = dot + 1;
  }
  return !only_null || v.is_null();
}

nlohmann::json load_json_file(const std::string& path)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": is a directory, expected a JSON file");
  std::ifstream in(path);
  if (!in)
    throw ConfigError(path + ": cannot open file");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  // nlohmann's parser stops at a NUL byte and ignores what follows; a JSON file has none.
  if (const auto nul = s.find('\0'); nul != std::string::npos)
    throw ConfigError(path + ": byte " + std::to_string(nul + 1) + " is a NUL; expected a JSON text file");
  return parse_json_strict(s, path);
}

Reader::Reader(const nlohmann::json& node, std::string file, std::string path)
    : node_(node), file_(std::move(file)), path_(std::move(path))
{
  if (!node_.is_object())
    throw ConfigError(file_ + ": " + (path_.empty() ? "<top level>" : path_) + ": expected a JSON object, got " +
                      node_.type_name());
}

std::string Reader::where(const std::string& key) const
{
  return path_.empty() ? key : path_ + "." + key;
}

void Reader::fail(const std::string& key, const std::string& expected) const
{
  throw ConfigError(file_ + ": field '" + where(key) + "': " + expected);
}

bool Reader::has(const std::string& key) const
{
  return node_.contains(key);
}

bool Reader::bare_number(const std::string& key) const
{
  return node_.contains(key) && node_.at(key).is_number();
}

const nlohmann::json& Reader::get(const std::string& key)
{
  read_.insert(key);
  return node_.at(key);
}

template <class F, class C>
double Reader::unit_value(const std::string& key, double fallback, bool required, F parse, C check, const char* what,
                          bool positive)
{
  if (!has(key)) {
    if (required)
      fail(key, std::string("missing; expected a ") + what);
    return fallback;
  }
  const auto& v = get(key);
  try {
    if (v.is_number()) {
      double x = v.get<double>();
      if (!std::isfinite(x) || (x < 0 && !positive))  // (a positive field's check refuses 0 and below)
        fail(key, std::string("expected a non-negative ") + what + ", got " + v.dump());
      return check(x);
    }
    if (!v.is_string())
      fail(key, std::string("expected a ") + what + " (number or string with unit), got " + v.dump());
    return parse(v.get<std::string>(), false);  // a string must carry its unit ("20" is refused)
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}


double Reader::duration_s(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_duration_s, units::check_duration_s,
                    "duration (e.g. \"24us\")");
}
double Reader::duration_s(const std::string& key)
{
  return unit_value(key, 0, true, units::parse_duration_s, units::check_duration_s,
                    "duration (e.g. \"24us\")");
}
double Reader::size_B(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_size_B, units::check_size_B,
                    "size (e.g. \"1MiB\")");
}
double Reader::positive_size_B(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_positive_size_B, units::check_positive_size_B,
                    "positive size (e.g. \"3900B\")", true);
}
double Reader::bandwidth_Bps(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_bandwidth_Bps, units::check_bandwidth_Bps,
                    "bandwidth (e.g. \"10Gbps\")");
}
double Reader::positive_bandwidth_Bps(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_positive_bandwidth_Bps, units::check_positive_bandwidth_Bps,
                    "positive bandwidth (e.g. \"10Gbps\")", true);
}
double Reader::bandwidth_Bps(const std::string& key)
{
  return unit_value(key, 0, true, units::parse_bandwidth_Bps, units::check_bandwidth_Bps, "bandwidth (e.g. \"10Gbps\")");
}
double Reader::frequency_Hz(const std::string& key, double fallback)
{
  return unit_value(key, fallback, false, units::parse_frequency_Hz, units::check_frequency_Hz,
                    "frequency (e.g. \"2.4GHz\")");
}

double Reader::number(const std::string& key, double fallback, double min, double max)
{
  if (!has(key))
    return fallback;
  const auto& v = get(key);
  char range[80];  // as the values are written: [0, 1], not [0.000000, 1.000000]
  std::snprintf(range, sizeof range, "[%.15g, %.15g]", min, max);
  if (beyond_double(v))  // a --set's 1e400: out of the range, as any number beyond it
    fail(key, std::string("expected a number in ") + range + ", got " + v.get<std::string>());
  if (!v.is_number())
    fail(key, "expected a number, got " + v.dump());
  double x = v.get<double>();
  if (!(x >= min && x <= max))
    fail(key, std::string("expected a number in ") + range + ", got " + shown(v));
  return x;
}

long long Reader::integer(const std::string& key, long long fallback, long long min, long long max)
{
  if (!has(key))
    return fallback;
  return integer(key, min, max);
}

long long Reader::integer(const std::string& key, long long min, long long max)
{
  if (!has(key))
    fail(key, "missing; expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  const auto& v = get(key);
  try {
    return json_integer(v, min, max);
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

bool Reader::boolean(const std::string& key, bool fallback)
{
  if (!has(key))
    return fallback;
  const auto& v = get(key);
  if (!v.is_boolean())
    fail(key, "expected true or false, got " + v.dump());
  return v.get<bool>();
}

std::string Reader::string(const std::string& key, const std::string& fallback)
{
  if (!has(key))
    return fallback;
  const auto& v = get(key);
  if (!v.is_string())
    fail(key, "expected a string, got " + v.dump());
  return v.get<std::string>();
}

std::string Reader::choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed)
{
  std::string s = string(key, fallback);
  for (const auto& a : allowed)
    if (a == s)
      return s;
  std::string list;
  for (const auto& a : allowed)
    list += (list.empty() ? "\"" : ", \"") + a + "\"";
  fail(key, "expected one of " + list + ", got \"" + s + "\"");
}

std::vector<std::string> Reader::string_list(const std::string& key, const std::vector<std::string>& fallback)
{
  if (!has(key))
    return fallback;
  const auto& v = get(key);
  if (!v.is_array())
    fail(key, "expected an array of strings, got " + v.dump());
  std::vector<std::string> out;
  for (const auto& e : v) {
    if (!e.is_string())
      fail(key, "expected an array of strings, got element " + e.dump());
    out.push_back(e.get<std::string>());
  }
  return out;
}

Reader Reader::object(const std::string& key)
{
  static const nlohmann::json empty = nlohmann::json::object();
  if (!has(key))
    return Reader(empty, file_, where(key));
  const auto& v = get(key);
  if (!v.is_object())
    fail(key, std::string("expected an object, got ") + v.type_name());
  return Reader(v, file_, where(key));
}

std::vector<std::string> Reader::keys() const
{
  std::vector<std::string> out;
  for (const auto& item : node_.items())
    out.push_back(item.key());
  return out;
}

nlohmann::json Reader::raw(const std::string& key)
{
  if (!has(key))
    return nullptr;
  return get(key);
}

void Reader::finish() const
{
  for (const auto& item : node_.items())
    if (read_.count(item.key()) == 0)
      throw ConfigError(file_ + ": unknown field '" + where(item.key()) + "' (check its spelling and place)");
}

}  // namespace pfsim::config
