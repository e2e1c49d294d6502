#include "app/commands.hpp"
#include "config/reader.hpp"
#include "config/units.hpp"
#include "report/outputs.hpp"
#include "workload/synthetic.hpp"

#include <cctype>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace pfsim::app {

namespace {
// The keys of a dotted --set path ("mds.threads.max": mds, threads, max; an empty key is kept, for the caller to refuse).
std::vector<std::string> path_keys(const std::string& path)
{
  std::vector<std::string> keys;
  for (size_t from = 0;;) {
    const size_t dot = path.find('.', from);
    keys.push_back(path.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
    if (dot == std::string::npos)
      return keys;
    from = dot + 1;
  }
}

// An object given to --set is merged into the file's object at that path, field by field and recursively: the
// fields it names override, the others stay (--set 'mds.threads={"max":64}' keeps the file's threads.min), and a
// field given as null is removed (JSON merge patch).
void merge_into(nlohmann::json& into, const nlohmann::json& from)
{
  if (!into.is_object() || !from.is_object()) {
    into = from;
    return;
  }
  for (auto it = from.begin(); it != from.end(); ++it) {
    if (it.value().is_null())
      into.erase(it.key());  // null removes the field (JSON merge patch, RFC 7386)
    else
      merge_into(into[it.key()], it.value());
  }
}
// The dotted names (a platform field's path, "clients.max_dirty_mb") in `text` from `from` on, in order: the fields a
// message names besides its own (a trailing '.' ends the sentence, not the name).
std::vector<std::string> dotted_names(const std::string& text, size_t from)
{
  const auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
  std::vector<std::string> names;
  for (size_t at = from; at < text.size();) {
    if (!name_char(text[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && name_char(text[end]))
      ++end;
    std::string name = text.substr(at, end - at);
    while (!name.empty() && name.back() == '.')
      name.pop_back();
    if (name.find('.') != std::string::npos)
      names.push_back(name);
    at = end;
  }
  return names;
}

}  // namespace

nlohmann::json apply_sets(nlohmann::json j, const std::vector<std::string>& sets)
{
  for (const auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos)
      throw config::ConfigError("--set " + s + ": expected PATH=VALUE, e.g. mds.threads.max=64");
    std::string path = s.substr(0, eq);
    std::string value = s.substr(eq + 1);
    const std::vector<std::string> parts = path_keys(path);
    for (const auto& p : parts)
      if (p.empty())
        throw config::ConfigError("--set " + s + ": expected a dotted field path such as mds.threads.max before '='");
    if (value.empty())
      throw config::ConfigError("--set " + s + ": expected a value after '='");
    if (value == "null") {
      // PATH=null removes the field, as null does inside an object value (JSON merge patch, RFC 7386); a path the
      // file does not have is left as it is (no empty objects made on the way: an empty law or block is an error).
      nlohmann::json* at = &j;
      for (size_t i = 0; at && i + 1 < parts.size(); ++i)
        at = at->is_object() && at->contains(parts[i]) ? &(*at)[parts[i]] : nullptr;
      if (at && at->is_object())
        at->erase(parts.back());
      continue;
    }
    nlohmann::json* node = &j;
    std::string walked;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      walked += (walked.empty() ? "" : ".") + parts[i];
      if (!node->contains(parts[i]))
        (*node)[parts[i]] = nlohmann::json::object();
      node = &(*node)[parts[i]];
      if (!node->is_object())
        throw config::ConfigError("--set " + s + ": field '" + walked + "' is a value, not an object with fields");
    }
    nlohmann::json v;
    const bool structured = value.front() == '{' || value.front() == '[';
    if (structured) {
      v = config::parse_json_strict(value, "--set " + s, path);  // an object or list must be valid JSON
    } else {
      try {
        v = nlohmann::json::parse(value);
      } catch (const std::exception&) {
        v = value;  // a bare string such as 200us
      }
    }
    if (node->contains(parts.back()))
      merge_into((*node)[parts.back()], v);
    else
      (*node)[parts.back()] = v;
  }
  return j;
}

// An override inside a block that stays off ("enabled": false, in the file or set so) changes nothing: said, naming
// the switch (a --set of mds.mechanisms.partitions.count alone ran the baseline without a word).
std::vector<std::string> sets_inside_disabled(const nlohmann::json& j, const std::vector<std::string>& sets)
{
  std::vector<std::string> out;
  for (const auto& s : sets) {
    const std::string path = s.substr(0, s.find('='));
    const std::vector<std::string> keys = path_keys(path);
    if (keys.back() == "enabled")
      continue;  // the switch itself
    const nlohmann::json* n = &j;
    std::string at;
    for (size_t k = 0; k < keys.size() && n->is_object() && n->contains(keys[k]); ++k) {
      n = &(*n)[keys[k]];
      at += (at.empty() ? "" : ".") + keys[k];
      const bool set_value_states_switch = k + 1 == keys.size() && s.find("\"enabled\"") != std::string::npos;
      if (n->is_object() && n->contains("enabled") && (*n)["enabled"] == false && !set_value_states_switch) {
        out.push_back("--set " + s + ": " + at + " is off (\"enabled\": false), so this changes nothing; add --set " +
                      at + ".enabled=true to switch it on");
        break;
      }
    }
  }
  return out;
}

// A bare number given by --set to a field that the platform writes with a unit is read in the base unit: "--set
// mds.service.create=500" is 500 s of CPU per create, not 500 us (a planner got 0.008 creates/s without a word). Said
// when the field holds a unit string; the unit is told from that string.
std::optional<std::string> bare_number_set(const nlohmann::json& j, const std::string& s)
{
  const auto eq = s.find('=');
  if (eq == std::string::npos)
    return std::nullopt;
  const std::string value = s.substr(eq + 1);
  nlohmann::json v;
  try {
    v = nlohmann::json::parse(value);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!v.is_number() || v.get<double>() == 0)
    return std::nullopt;
  const nlohmann::json* n = &j;
  const std::string path = s.substr(0, eq);
  for (const auto& key : path_keys(path)) {
    if (!n->is_object() || !n->contains(key))
      return std::nullopt;
    n = &(*n)[key];
  }
  if (!n->is_string())
    return std::nullopt;
  const std::string was = n->get<std::string>();
  struct Kind {
    double (*parse)(const std::string&, bool);
    const char* base;
    const char* example;  // a unit one may have meant
  };
  static const Kind kinds[] = {{units::parse_duration_s, "s", "us"},
                               {units::parse_size_B, "B", "KiB"},
                               {units::parse_bandwidth_Bps, "Bps", "MBps"},
                               {units::parse_frequency_Hz, "Hz", "GHz"}};
  for (const auto& k : kinds) {
    try {
      k.parse(was, false);
    } catch (const std::exception&) {
      continue;
    }
    return "--set " + s + ": a number without a unit is read in " + k.base + " (" + value + " " + k.base +
           "), and the platform gives this field as \"" + was + "\"; write the unit if you meant another (e.g. " +
           path + "=" + value + k.example + ")";
  }
  return std::nullopt;
}

std::string bulk_load_law_warning(const config::PlatformConfig& platform, bool reads, bool writes)
{
  const auto& ld = platform.clients.load_delay;
  if (!ld.enabled)
    return "";
  std::string kinds;
  // (A law that states its fitted_size is left to the run, which says so when it delays calls of another size.)
  for (auto [op, used] : {std::pair{Op::Read, reads}, {Op::Write, writes}})
    if (used && ld.law[op].set && ld.law[op].fitted_size_B <= 0)
      kinds += (kinds.empty() ? "" : " and ") + std::string(op_name(op));
  if (kinds.empty())
    return "";
  return "clients.load_delay has a law for " + kinds + " (" + (platform.name.empty() ? "this platform" : platform.name) +
         "'s, fitted on its traces' operations): it delays every " + kinds +
         " call of this run that goes to an OST (not one the node's page cache serves) by the law's delay, whatever its "
         "size; --set clients.load_delay.enabled=false leaves the "
         "laws out (the OSTs, links and RPC pipeline alone)";
}

config::PlatformConfig load_platform(const std::string& file, const std::vector<std::string>& sets)
{
  auto platform = load_platform_unprinted(file, sets);
  for (const auto& w : platform.warnings)
    std::cerr << "pfsim: warning: " << w << "\n";
  return platform;
}

config::PlatformConfig load_platform_unprinted(const std::string& file, const std::vector<std::string>& sets)
{
  const auto file_json = config::load_json_file(file);
  auto j = file_json;
  std::vector<std::string> set_warnings;
  for (size_t i = 0; i < sets.size(); ++i) {  // one at a time: a --set sees the field as the earlier ones left it
    const std::string path = sets[i].substr(0, sets[i].find('='));
    const bool replaced = std::any_of(sets.begin() + static_cast<std::ptrdiff_t>(i) + 1, sets.end(),
                                      [&](const std::string& later) { return config::set_gives_field(later, path); });
    if (auto w = bare_number_set(j, sets[i]); w && !replaced)  // (a value a later --set replaces is not run)
      set_warnings.push_back(*w);
    // The same field set twice: the last applies, as later overrides do (both are recorded in the results' inputs).
    for (size_t k = i + 1; k < sets.size(); ++k)
      if (sets[k].substr(0, sets[k].find('=')) == path) {
        set_warnings.push_back("--set " + sets[i] + " is replaced by the later --set " + sets[k] + " (the last applies)");
        break;
      }
    j = apply_sets(std::move(j), {sets[i]});
  }
  try {
    auto platform = config::parse_platform(j, file);
    platform.file = file;
    platform.sets = sets;
    // A warning about a block that an override gave names the override, not the file (which may say otherwise).
    for (auto& w : platform.warnings) {
      const std::string head = file + ": ";
      if (w.rfind(head, 0) != 0)
        continue;
      const std::string field = w.substr(head.size(), w.find_first_of(": ", head.size()) - head.size());
      // The override that gave the block: its path is the block or inside it, or its value (an object merged at a
      // parent) holds the block. A parent's object that only merges elsewhere gave nothing.
      const auto gives = [](const std::string& set, const std::string& name) {
        const std::string path = set.substr(0, set.find('='));
        return path == name || path.rfind(name + ".", 0) == 0 || config::set_gives_field(set, name);
      };
      bool named = false;
      for (auto it = sets.rbegin(); it != sets.rend() && !named; ++it)
        if (gives(*it, field)) {
          w = "--set " + *it + ": " + w.substr(head.size());
          named = true;
        }
      // Else the override that gave the setting that makes the field inert, which the warning names after it
      // ("clients.hold_partial_rpcs is true but clients.max_dirty_mb is 0": --set clients.max_dirty_mb=0 on a platform
      // that holds partial RPCs, helper-135).
      for (const auto& name : dotted_names(w, head.size() + field.size())) {
        if (name == field)
          continue;
        for (auto it = sets.rbegin(); it != sets.rend() && !named; ++it)
          if (gives(*it, name)) {
            w = "--set " + *it + ": " + w.substr(head.size());
            named = true;
          }
      }
    }
    // A --set already warned about for its bare number is not warned about again for the value that number gave.
    platform.warnings.erase(std::remove_if(platform.warnings.begin(), platform.warnings.end(),
                                           [&](const std::string& w) {
                                             if (w.find("a number without a unit is read in seconds") ==
                                                 std::string::npos)
                                               return false;
                                             return std::any_of(set_warnings.begin(), set_warnings.end(),
                                                                [&](const std::string& s) {
                                                                  const auto colon = s.find(": ");
                                                                  return w.rfind(s.substr(0, colon + 2), 0) == 0;
                                                                });
                                           }),
                            platform.warnings.end());
    for (auto& w : sets_inside_disabled(j, sets))
      platform.warnings.push_back(std::move(w));
    for (auto& w : set_warnings)
      platform.warnings.push_back(std::move(w));
    return platform;
  } catch (const config::ConfigError& e) {
    // Name the --set override at fault: the last one (it overrides the earlier ones) whose path is the field or
    // contains it. Only when none does, one whose path lies inside the field or beside it (a value that the
    // override made inconsistent, e.g. a law's slope key after --set of its population).
    std::string msg = e.what();
    auto q1 = msg.find('\'');
    auto q2 = q1 == std::string::npos ? q1 : msg.find('\'', q1 + 1);
    if (q2 != std::string::npos) {
      std::string field = msg.substr(q1 + 1, q2 - q1 - 1);
      auto path_of = [](const std::string& s) { return s.substr(0, s.find('=')); };
      for (auto it = sets.rbegin(); it != sets.rend(); ++it)  // the last that gives the field (merge: not a parent)
        if (config::set_gives_field(*it, field))
          throw config::ConfigError("--set " + *it + ": " + msg);
      // Then the last one whose field the message names as the other side of the conflict ("expected at most
      // mds.threads.max (3)"): it changed the bound, not a sibling of the field.
      for (auto it = sets.rbegin(); it != sets.rend(); ++it) {
        const std::string path = path_of(*it);
        for (auto at = msg.find(path, q2); at != std::string::npos; at = msg.find(path, at + 1)) {
          const size_t end = at + path.size();
          const auto part_of_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
          if (!part_of_name(msg[at - 1]) && (end == msg.size() || !part_of_name(msg[end]) ||
                                             (msg[end] == '.' && (end + 1 == msg.size() || msg[end + 1] == ' '))))
            throw config::ConfigError("--set " + *it + ": " + msg);
        }
      }
      // ... or whose object value gives a field the message names (--set 'mds={"threads":{"max":3}}' for "expected
      // at most mds.threads.max (3)").
      const std::vector<std::string> named = dotted_names(msg, q2 + 1);  // the dotted names after the field
      for (auto it = sets.rbegin(); it != sets.rend(); ++it)
        for (const auto& name : named)
          if (config::set_gives_field(*it, name))
            throw config::ConfigError("--set " + *it + ": " + msg);
      // ... or by its name alone, in the field's own section ("expected at least readahead_mb (128)": helper-91, the
      // first --set of the section was named, clients.hold_partial_rpcs, not clients.readahead_mb)
      const auto field_dot = field.rfind('.');
      const std::string section = field_dot == std::string::npos ? std::string() : field.substr(0, field_dot + 1);
      for (auto it = sets.rbegin(); it != sets.rend() && !section.empty(); ++it) {
        const std::string path = path_of(*it);
        if (path.rfind(section, 0) != 0 || path.find('.', section.size()) != std::string::npos)
          continue;
        const std::string leaf = path.substr(section.size());
        const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
        for (auto at = msg.find(leaf, q2); at != std::string::npos; at = msg.find(leaf, at + 1)) {
          const size_t end = at + leaf.size();
          if (!word(msg[at - 1]) && (end == msg.size() || !word(msg[end])))
            throw config::ConfigError("--set " + *it + ": " + msg);
        }
      }
      for (const auto& s : sets) {
        std::string path = path_of(s);
        auto dot = path.rfind('.');
        std::string parent = dot == std::string::npos ? std::string() : path.substr(0, dot + 1);
        if (path.rfind(field + ".", 0) == 0 ||
            (!parent.empty() && field.rfind(parent, 0) == 0 && field.find('.', parent.size()) == std::string::npos))
          throw config::ConfigError("--set " + s + ": " + msg);
      }
    }
    // None of those: the last --set without which the platform does not fail so, e.g. a relation between two fields
    // that an object merged at their parent broke without giving the field named (--set 'mds.threads={"min":200}'
    // against the file's threads.max 151: the error is at threads.max, which the --set does not hold; helper-129).
    // Without it the platform loads, or fails at the same field otherwise; or at another field, but not with the file's
    // own error, which the --set had mended (a file failing at A and at B, A mended by a --set, fails at B: B is the
    // file's). An error of the file itself stays the file's: without any one --set it is the same.
    const auto error_of = [&](const nlohmann::json& j) -> std::string {
      try {
        config::parse_platform(j, file);
      } catch (const config::ConfigError& other) {
        return other.what();
      }
      return "";
    };
    const auto field_of = [](const std::string& m) {
      const auto at = m.find("field '");
      const auto end = at == std::string::npos ? at : m.find('\'', at + 7);
      return end == std::string::npos ? std::string() : m.substr(at + 7, end - at - 7);
    };
    std::optional<std::string> file_error;  // the file's own, without any --set (computed once, when needed)
    for (size_t k = sets.size(); k-- > 0;) {
      std::vector<std::string> others = sets;
      others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
      nlohmann::json with_others;
      try {
        with_others = apply_sets(file_json, others);
      } catch (const config::ConfigError&) {
        continue;  // the others do not apply without it: no evidence either way
      }
      const std::string without = error_of(with_others);
      if (without == msg)
        continue;
      if (!without.empty() && field_of(without) != field_of(msg)) {
        if (!file_error)
          file_error = error_of(file_json);
        if (without == *file_error)
          continue;  // it mended the file's error, which hid this one
      }
      throw config::ConfigError("--set " + sets[k] + ": " + msg);
    }
    throw;
  }
}

}  // namespace pfsim::app

namespace pfsim::app {

namespace fs = std::filesystem;

namespace {
// Whether a file can be created in the existing directory `dir` (access(W_OK) says yes to root even on /proc).
bool can_create_in(const fs::path& dir)
{
  std::string probe = (dir / ".pfsim-probe-XXXXXX").string();
  std::vector<char> name(probe.begin(), probe.end());
  name.push_back('\0');
  SignalsBlocked hold;  // a signal between the creation and the removal would leave the probe (helper-120)
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    return false;  // errno says why
  ::close(fd);
  ::unlink(name.data());
  return true;
}
}  // namespace

void check_output_file(const std::string& option, const std::string& path)
{
  if (path.empty())
    return;
  std::error_code ec;
  auto st = fs::symlink_status(path, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st))
    throw std::invalid_argument(option + " " + path +
                                ": expected a regular file path (it exists and is a directory, link, FIFO or "
                                "device, which the output would replace)");
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty())
    parent = ".";
  if (!fs::is_directory(parent, ec))
    throw std::invalid_argument(option + " " + path + ": " + parent.string() +
                                (fs::exists(parent, ec) ? " is not a directory" : " does not exist"));
  if (::access(parent.c_str(), W_OK) != 0)
    throw std::invalid_argument(option + " " + path + ": directory " + parent.string() + " is not writable");
  // access() says yes to root everywhere (also in /proc): the output is written to a temporary name in the same
  // directory at the end, so try that now rather than after the run.
  if (!can_create_in(parent))
    throw std::invalid_argument(option + " " + path + ": cannot create a file in " + parent.string() + " (" +
                                std::strerror(errno) + ")");
}

OutputDirSnapshot snapshot_output_dir(const std::string& option, const std::string& dir, const std::string& prefix,
                                      const std::string& suffix)
{
  OutputDirSnapshot s{option, dir, prefix, suffix, {}};
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec))
    return s;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file(ec) && name.rfind(prefix + "-", 0) == 0 && name.size() > prefix.size() + suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      s.files.emplace_back(name, fs::last_write_time(e.path(), ec));
  }
  std::sort(s.files.begin(), s.files.end());
  return s;
}

std::vector<std::string> left_unwritten(const OutputDirSnapshot& before)
{
  std::vector<std::string> stale;
  std::error_code ec;
  for (const auto& [name, time] : before.files) {
    const auto p = fs::path(before.dir) / name;
    if (fs::exists(p, ec) && fs::last_write_time(p, ec) == time)
      stale.push_back(name);
  }
  return stale;
}

std::vector<std::string> left_unwritten(const OutputDirSnapshot& before, const std::set<std::string>& written)
{
  std::vector<std::string> stale;
  for (const auto& f : before.files)
    if (written.count(f.first) == 0)
      stale.push_back(f.first);
  return stale;
}

void warn_unwritten(const OutputDirSnapshot& before, const std::string& consequence)
{
  warn_unwritten(before, left_unwritten(before), consequence);
}

void warn_unwritten(const OutputDirSnapshot& before, const std::vector<std::string>& stale,
                    const std::string& consequence)
{
  if (stale.empty())
    return;
  std::cerr << "pfsim: warning: " << before.option << " " << before.dir << ": " << stale.size()
            << " file(s) named like this run's (" << before.prefix << "-*" << before.suffix
            << ") were not written by it, e.g. " << stale.front() << " (an earlier run's?); " << consequence << "\n";
}

void check_output_dir(const std::string& option, const std::string& path, const std::string& typed)
{
  if (path.empty())
    return;
  const std::string head = option + " " + (typed.empty() ? path : typed) + ": ";
  const std::string what = typed.empty() ? std::string() : "its directory " + path + " ";
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (!ec && fs::exists(st)) {
    if (!fs::is_directory(st))
      throw std::invalid_argument(head + what + "expected a directory (it exists and is not one)");
    if (!can_create_in(path))
      throw std::invalid_argument(head + what + (what.empty() ? "directory " : "") + "is not writable");
    return;
  }
  // Missing: the run creates it (make_output_dir), not its parents. Probed now by creating it (and a file in it), then
  // removed again, so a run that cannot write its outputs fails before it simulates and leaves nothing behind.
  fs::path target = fs::path(path).lexically_normal();
  if (!target.has_filename())  // "lat/"
    target = target.parent_path();
  fs::path parent = target.parent_path();
  if (parent.empty())
    parent = ".";
  const std::string cannot = head + what + "cannot be created: ";
  if (!fs::exists(parent, ec))
    throw std::invalid_argument(cannot + "its parent directory " + parent.string() +
                                " does not exist (a missing output directory is created, not its parents)");
  if (!fs::is_directory(parent, ec))
    throw std::invalid_argument(cannot + "its parent " + parent.string() + " is not a directory");
  const bool made = fs::create_directory(target, ec) && !ec;
  const bool ok = made && can_create_in(target);
  const std::string why = ec ? ec.message() : "no file can be created in it";
  if (made) {
    std::error_code ignore;
    fs::remove(target, ignore);
  }
  if (!ok)
    throw std::invalid_argument(cannot + why);
}

void check_file_prefix(const std::string& option, const std::string& prefix)
{
  if (prefix.find('/') != std::string::npos)
    throw std::invalid_argument(option + " " + prefix + ": expected a file name prefix without '/'");
  // (helper-136: ".." was refused as a prefix "with '/'", which it has not)
  if (prefix == "." || prefix == "..")
    throw std::invalid_argument(option + " " + prefix + ": '" + prefix + "' names a directory (the " +
                                (prefix == "." ? "current" : "parent") + " one), not a file name prefix: expected a "
                                "name such as lat (the directory is --latency-dir's)");
}

std::pair<std::string, std::string> split_file_prefix(const std::string& option, const std::string& prefix)
{
  const auto slash = prefix.find_last_of('/');
  const std::string name = slash == std::string::npos ? prefix : prefix.substr(slash + 1);
  if (name.empty())
    throw std::invalid_argument(option + " " + prefix + ": expected a file prefix (DIR/NAME or NAME), not a directory");
  return {slash == std::string::npos ? "." : slash == 0 ? "/" : prefix.substr(0, slash), name};
}

nlohmann::json recorded_options(const std::map<std::string, std::string>& opts, const std::vector<std::string>& flags)
{
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : opts)
    if (k != "--out" && k != "--latency-dir" && k != "--csv" && k != "--results-dir" && k != "--jobs" &&
        k != "--lmt")
      j[k] = v;
  for (const auto& f : flags)
    if (f != "--quiet")
      j[f] = true;
  return j;
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& options)
{
  std::error_code ec;
  for (size_t i = 0; i < options.size(); ++i)
    for (size_t j = i + 1; j < options.size(); ++j) {
      if (options[i].second.empty() || options[j].second.empty())
        continue;
      // Absolute and normalised first: "x", "./x" and "$PWD/x" are one path.
      auto a = fs::weakly_canonical(fs::absolute(options[i].second, ec), ec).lexically_normal();
      auto b = fs::weakly_canonical(fs::absolute(options[j].second, ec), ec).lexically_normal();
      if (a == b)
        throw std::invalid_argument(options[i].first + " and " + options[j].first + " name the same path " +
                                    options[i].second);
    }
}

void check_outputs_spare_inputs(const std::vector<RunOutput>& outputs, const std::vector<RunInput>& inputs)
{
  std::error_code ec;
  // A file name among those a directory output writes (<prefix>*<suffix>).
  auto named_like = [](const std::string& name, const RunOutput& d) {
    return name.rfind(d.prefix, 0) == 0 && name.size() >= d.suffix.size() &&
           name.compare(name.size() - d.suffix.size(), std::string::npos, d.suffix) == 0;
  };
  // A file output named like the files a directory output writes (--out lat/<prefix>-x.csv beside --latency-dir
  // lat): one would replace the other.
  for (const auto& d : outputs)
    for (const auto& f : outputs) {
      if (!d.dir || f.dir || d.path.empty() || f.path.empty())
        continue;
      const fs::path p = fs::absolute(f.path, ec).lexically_normal();
      const std::string name = p.filename().string();
      if (fs::absolute(d.path, ec).lexically_normal() / "" == p.parent_path() / "" && named_like(name, d))
        throw std::invalid_argument(f.option + " " + f.path + " is named like the files " + d.option + " " + d.path +
                                    " receives (" + d.prefix + "*" + d.suffix + "); expected another name");
    }
  for (const auto& out : outputs) {
    if (out.path.empty() || !fs::exists(out.path, ec))
      continue;  // nothing there yet: nothing to replace
    // A directory, FIFO or link named like the files written there would stop the writing after the run, with
    // some files written: refused now.
    if (out.dir && fs::is_directory(out.path, ec))
      for (const auto& e : fs::directory_iterator(out.path, ec)) {
        const std::string name = e.path().filename().string();
        if (named_like(name, out) && !fs::is_regular_file(fs::symlink_status(e.path(), ec)))
          throw std::invalid_argument(out.option + " " + out.path + ": " + e.path().string() +
                                      " exists and is not a regular file; the files written there (" + out.prefix +
                                      "*" + out.suffix + ") would have to replace it");
      }
    for (const auto& in : inputs) {
      if (in.path.empty() || !fs::exists(in.path, ec))
        continue;
      const bool in_dir = fs::is_directory(in.path, ec);
      if (!out.dir) {
        if (!in_dir && fs::equivalent(out.path, in.path, ec))
          throw std::invalid_argument(out.option + " " + out.path + " is " + in.what + " " + in.path +
                                      ": the output would overwrite an input of this run");
        continue;
      }
      if (in_dir) {
        if (fs::equivalent(out.path, in.path, ec))
          throw std::invalid_argument(out.option + " " + out.path + " is " + in.what + " " + in.path +
                                      ": the files written there would overwrite or mix with the recorded ones");
        continue;
      }
      // The file where it is named, and where it is stored if that name is a symbolic link (a trace directory of
      // links into an archive: writing into the archive's directory would replace the recorded files).
      std::vector<fs::path> places{fs::path(in.path)};
      if (fs::is_symlink(fs::symlink_status(in.path, ec))) {
        const fs::path target = fs::canonical(in.path, ec);
        if (!ec)
          places.push_back(target);
      }
      for (const auto& p : places) {
        const std::string name = p.filename().string();
        const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        if (fs::equivalent(out.path, parent, ec) && named_like(name, out))
          throw std::invalid_argument(out.option + " " + out.path + " holds " + in.what + " " + in.path +
                                      (p.string() == in.path ? std::string() : " (a link to " + p.string() + ")") +
                                      ", which the files written there (" + out.prefix + "*" + out.suffix +
                                      ") could overwrite");
      }
    }
  }
  // A file written into a directory the run reads (the trace directory, whose files the importer takes by their
  // names: --out lat-0-stat-2.csv there became a latency file of later replays) mixes with the recorded files, as
  // --latency-dir naming that directory would: refused whatever its name, as that is.
  for (const auto& out : outputs) {
    if (out.dir || out.path.empty())
      continue;
    const fs::path parent = fs::absolute(out.path, ec).lexically_normal().parent_path();
    for (const auto& in : inputs)
      if (in.read_dir && !in.path.empty() && fs::equivalent(parent, in.path, ec))
        throw std::invalid_argument(out.option + " " + out.path + " is in " + in.what + " " + in.path +
                                    ": a file written there would mix with the recorded ones; expected a path "
                                    "outside it");
  }
}

}  // namespace pfsim::app

namespace pfsim::app {

void check_simgrid_arg(const std::string& arg)
{
  if (arg.rfind("--cfg=", 0) == 0) {
    std::string item = arg.substr(6);
    if (item.find(':') == std::string::npos)
      throw std::invalid_argument(arg + ": expected --cfg=<name>:<value>");
    std::string name = item.substr(0, item.find(':'));
    // Only the numerical model settings are passed through; the rest (contexts, plugins, tracing...) can crash or
    // hang the simulator or make it ignore the platform.
    if (name.rfind("network/", 0) != 0 && name.rfind("maxmin/", 0) != 0 && name != "precision/timing" &&
        name != "precision/work-amount" && name != "surf/precision")
      throw std::invalid_argument(arg + ": pfsim passes only network/*, maxmin/* and precision settings to SimGrid");
    if (name == "network/model" || name == "network/crosstraffic")
      throw std::invalid_argument(arg + ": this comes from the platform (set it with --set network." +
                                  std::string(name == "network/model" ? "model" : "crosstraffic") + "=...)");
    return;
  }
  // --log=<category>.<setting>:<value> (SimGrid aborts the process on a malformed one).
  std::string item = arg.substr(6);
  if (item == "no_loc")
    return;
  auto colon = item.find(':');
  auto dot = item.rfind('.', colon);
  static const std::vector<std::string> settings{"thres", "threshold", "fmt", "app", "appender", "add", "additivity"};
  std::string setting = (colon == std::string::npos || dot == std::string::npos) ? "" : item.substr(dot + 1, colon - dot - 1);
  bool known = false;
  for (const auto& s : settings)
    known = known || setting == s;
  if (!known || dot == 0 || colon + 1 >= item.size())
    throw std::invalid_argument(arg + ": expected --log=<category>.thres:<level> (or .fmt/.app/.add), e.g. "
                                "--log=pfsim_servers.thres:debug");
  if (setting == "thres" || setting == "threshold") {
    static const std::vector<std::string> levels{"trace", "debug", "verbose", "info", "warning", "error", "critical"};
    std::string level = item.substr(colon + 1);
    bool ok = false;
    for (const auto& l : levels)
      ok = ok || level == l;
    if (!ok)
      throw std::invalid_argument(arg + ": unknown level \"" + level +
                                  "\"; expected trace, debug, verbose, info, warning, error or critical");
  }
}

int64_t mdtest_shift_on(const config::PlatformConfig& platform, int64_t stride, int ranks, int ranks_per_node)
{
  const int rpn = ranks_per_node > 0 ? ranks_per_node : platform.clients.ranks_per_node;
  return mdtest_effective_stride(stride, ranks, rpn, platform.clients.placement == "cyclic");
}

}  // namespace pfsim::app

