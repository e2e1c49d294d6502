// Strict reader for JSON configuration objects: every value is read through a typed accessor that knows
// its field path, unit strings are converted on reading, and finish() rejects fields nobody read (typos
// must not pass silently). Every error names the file, the field path and what was expected.
#pragma once
#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pfsim::config {

// Configuration or input error; the CLI turns it into one message on stderr and exit status 2.
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Parses JSON text, refusing a key given twice in one object and a number beyond a double's range; errors name
// `where` (and the field, prefixed by `field_prefix`, with the line and column of an out-of-range number).
nlohmann::json parse_json_strict(const std::string& text, const std::string& where,
                                 const std::string& field_prefix = "");
// Loads a JSON file; a syntax error names the file and the byte where parsing stopped.
nlohmann::json load_json_file(const std::string& path);

// Whether a "--set path=value" override gives FIELD (a dotted path): its path is the field, or its value is an
// object that holds the field. With only_null, whether it sets the field to null (removes it).
bool set_gives_field(const std::string& set, const std::string& field, bool only_null = false);

// An integer field's value: a JSON number that is whole (200; 2e2 and 200.0 too: JSON has one number type) within
// [min, max]. Otherwise std::invalid_argument, "expected an integer in [min, max], got X", also for a whole number
// beyond the range (1e10) or beyond a double's (1e400, which a --set passes on as its text): every integer field
// states its range. Reader::integer and the IOR summary's reader both read integers with it.
long long json_integer(const nlohmann::json& v, long long min, long long max);

class Reader {
public:
  Reader(const nlohmann::json& node, std::string file, std::string path);
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  Reader(Reader&&) = default;

  bool has(const std::string& key) const;
  // Whether the field is given as a bare JSON number (no unit string): a duration so given is in seconds.
  bool bare_number(const std::string& key) const;
  // Optional fields return the default when absent; required ones (no default) throw when absent.
  double duration_s(const std::string& key, double fallback);
  double duration_s(const std::string& key);
  double size_B(const std::string& key, double fallback);
  // A size that must be at least 1 byte (0 and negatives refused alike, "expected a positive size of at least 1 byte").
  double positive_size_B(const std::string& key, double fallback);
  double bandwidth_Bps(const std::string& key, double fallback);
  double bandwidth_Bps(const std::string& key);
  // A bandwidth that must be above 0 (a link, a disk that data crosses): 0 and negatives are refused alike,
  // "expected a positive bandwidth of at least 1 B/s (8 bps)".
  double positive_bandwidth_Bps(const std::string& key, double fallback);
  double frequency_Hz(const std::string& key, double fallback);
  double number(const std::string& key, double fallback, double min, double max);
  long long integer(const std::string& key, long long fallback, long long min, long long max);
  long long integer(const std::string& key, long long min, long long max);
  bool boolean(const std::string& key, bool fallback);
  std::string string(const std::string& key, const std::string& fallback);
  std::string choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed);
  std::vector<std::string> string_list(const std::string& key, const std::vector<std::string>& fallback);
  // A nested object; when absent, an empty object (all defaults).
  Reader object(const std::string& key);
  // Keys of this object (all of them, read or not; for maps keyed by name, e.g. per-operation tables).
  std::vector<std::string> keys() const;
  // Raw JSON of a field that is kept verbatim (e.g. "sources": documentation only).
  nlohmann::json raw(const std::string& key);

  // Throws on any field that was not read.
  void finish() const;

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const;
  std::string where(const std::string& key) const;
  const std::string& file() const { return file_; }

private:
  const nlohmann::json& get(const std::string& key);
  template <class F, class C>
  double unit_value(const std::string& key, double fallback, bool required, F parse, C check, const char* what,
                    bool positive = false);

  nlohmann::json node_;
  std::string file_;
  std::string path_;
  std::set<std::string> read_;
};

}  // namespace pfsim::config
