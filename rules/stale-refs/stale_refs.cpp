// The stale-refs rule (the dream seed's staleness check): each memory's file
// paths (backticked, or bare with an extension) and symbols (`name()`,
// `def name`, `class Name`, a backticked identifier) are looked up in the
// configured project tree — files by path, symbols by a word search of its
// source files. EVERGREEN (no references) and FRESH memories are kept;
// PARTIALLY_STALE ones are flagged and kept; FULLY_STALE ones (every reference
// gone) are moved whole to `archive/`, with the reason in the record, once they
// are older than `min_age_days`. Without `project_root` the rule does nothing,
// and says so once.
// It reads the project tree, never the store's disk, and never writes outside
// the store.
#include "../shared/knowledge.hpp"
#include "engram/plugin.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using engram::Action;
using engram::Layer;
using engram::StoreView;
namespace fs = std::filesystem;
namespace knowledge = engram::knowledge;

// Extensions a bare word must end with to be read as a file path.
constexpr std::string_view k_path_extensions[] = {
    ".py",   ".ts",   ".tsx",  ".js",  ".jsx", ".json", ".md",   ".yaml",  ".yml",
    ".sh",   ".toml", ".c",    ".cc",  ".cpp", ".cxx",  ".h",    ".hh",    ".hpp",
    ".go",   ".rs",   ".java", ".kt",  ".rb",  ".php",  ".cs",   ".swift", ".sql",
    ".html", ".css",  ".scss", ".txt", ".cfg", ".ini",  ".cmake"};

// Extensions of the source files symbols are searched in.
constexpr std::string_view k_source_extensions[] = {
    ".py",  ".ts",    ".tsx", ".js",  ".jsx",  ".c",    ".cc",    ".cpp", ".cxx",
    ".h",   ".hh",    ".hpp", ".go",  ".rs",   ".java", ".kt",    ".rb",  ".php",
    ".cs",  ".swift", ".sh",  ".sql", ".m",    ".mm",   ".scala", ".lua", ".ex",
    ".exs", ".erl",   ".hs",  ".ml",  ".dart", ".vue",  ".svelte"};

// Folders never searched: other tools' output and caches.
constexpr std::string_view k_skipped_folders[] = {".git",        "node_modules", ".venv", "venv",
                                                  "__pycache__", "target",       "dist",  ".cache"};

constexpr std::uintmax_t k_max_source_bytes = 2 * 1024 * 1024;
constexpr std::size_t k_max_project_files = 200'000;

bool ends_with_any(std::string_view text, const auto& suffixes) {
  return std::any_of(std::begin(suffixes), std::end(suffixes),
                     [&](std::string_view s) { return text.ends_with(s); });
}

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_identifier(std::string_view word) {
  return !word.empty() && !(word[0] >= '0' && word[0] <= '9') &&
         std::all_of(word.begin(), word.end(), identifier_char);
}

// True for an identifier that looks like code: CamelCase with an inner capital, or snake_case.
bool looks_like_code(std::string_view word) {
  if (!is_identifier(word) || word.size() < 3) {
    return false;
  }
  if (word.find('_') != std::string_view::npos) {
    return true;
  }
  for (std::size_t i = 1; i < word.size(); ++i) {
    if (word[i] >= 'A' && word[i] <= 'Z' && word[i - 1] >= 'a' && word[i - 1] <= 'z') {
      return true;
    }
  }
  return false;
}

// True for a word that reads as a file path: no scheme, with a '/' or a known extension.
bool looks_like_path(std::string_view word) {
  if (word.size() < 4 || word.find("://") != std::string_view::npos || word.starts_with("www.") ||
      word.find('@') != std::string_view::npos || word.find(' ') != std::string_view::npos) {
    return false;
  }
  const auto name =
      word.substr(word.rfind('/') == std::string_view::npos ? 0 : word.rfind('/') + 1);
  return ends_with_any(name, k_path_extensions) && name.size() > name.rfind('.') + 1 &&
         name.find('.') > 0;
}

// The references of one memory.
struct References {
  std::set<std::string> files;
  std::set<std::string> symbols;
};

// Extracts file paths and symbols from a body (comments left out).
References references_of(std::string_view body) {
  const std::string text = knowledge::without_comments(body);
  References refs;
  // Backticked spans: a path, `name()`, or an identifier that looks like code.
  for (std::size_t open = text.find('`'); open != std::string::npos;) {
    const auto close = text.find('`', open + 1);
    if (close == std::string::npos) {
      break;
    }
    std::string span = text.substr(open + 1, close - open - 1);
    if (looks_like_path(span)) {
      refs.files.insert(span);
    } else if (span.ends_with("()") && is_identifier(span.substr(0, span.size() - 2))) {
      refs.symbols.insert(span.substr(0, span.size() - 2));
    } else if (looks_like_code(span)) {
      refs.symbols.insert(span);
    }
    open = text.find('`', close + 1);
  }
  // Bare words: a path with an extension, `name()`, `def name`, `class Name`, `function name`.
  std::vector<std::string> words;
  {
    std::string word;
    for (char c : text) {
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '`' || c == '"' || c == '\'' ||
          c == '(' || c == '[' || c == '<' || c == '>' || c == ',' || c == ';') {
        if (c == '(' && !word.empty()) {
          words.push_back(word + "(");
          word.clear();
          continue;
        }
        if (!word.empty()) {
          words.push_back(word);
        }
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) {
      words.push_back(word);
    }
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    auto word = words[i];
    while (!word.empty() &&
           std::string_view(".:!?)]").find(word.back()) != std::string_view::npos) {
      word.pop_back();
    }
    if (word.ends_with("(")) {
      const auto name = word.substr(0, word.size() - 1);
      // `name()` only: a call written in prose, not "(see below)".
      const auto next = i + 1 < words.size() ? words[i + 1] : std::string();
      if (is_identifier(name) && name.size() > 2 && next.starts_with(")")) {
        refs.symbols.insert(name);
      }
      continue;
    }
    if (looks_like_path(word)) {
      refs.files.insert(word);
    }
    if ((word == "def" || word == "class" || word == "function" || word == "fn") &&
        i + 1 < words.size()) {
      auto name = words[i + 1];
      while (!name.empty() && !identifier_char(name.back())) {
        name.pop_back();
      }
      if (is_identifier(name) && name.size() > 2 &&
          (word != "class" || looks_like_code(name) || (name[0] >= 'A' && name[0] <= 'Z'))) {
        refs.symbols.insert(name);
      }
    }
  }
  return refs;
}

// The project tree: its files by relative path and by name, and the words of its sources.
struct Project {
  fs::path root;
  std::set<std::string> files;                           // relative, generic
  std::map<std::string, std::vector<std::string>> names; // file name → relative paths
  std::unordered_set<std::string> words;                 // identifiers in source files
  bool loaded = false;

  // Reads the tree once.
  void load() {
    loaded = true;
    std::error_code error;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
    for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      const auto name = it->path().filename().string();
      if (it->is_directory(error)) {
        if (std::find(std::begin(k_skipped_folders), std::end(k_skipped_folders), name) !=
            std::end(k_skipped_folders)) {
          it.disable_recursion_pending();
        }
        continue;
      }
      if (!it->is_regular_file(error) || files.size() >= k_max_project_files) {
        continue;
      }
      const auto relative = fs::relative(it->path(), root, error).generic_string();
      files.insert(relative);
      names[name].push_back(relative);
      if (ends_with_any(name, k_source_extensions) && it->file_size(error) <= k_max_source_bytes) {
        std::ifstream in(it->path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        std::string word;
        for (char c : bytes.str()) {
          if (identifier_char(c)) {
            word += c;
          } else if (!word.empty()) {
            words.insert(std::move(word));
            word.clear();
          }
        }
        if (!word.empty()) {
          words.insert(word);
        }
      }
    }
  }

  // True when a referenced path exists: from the root, or as the tail of a project path.
  bool has_file(std::string ref) const {
    while (ref.starts_with("./")) {
      ref = ref.substr(2);
    }
    if (ref.starts_with('/')) {
      std::error_code error;
      return fs::exists(ref, error);
    }
    if (files.contains(ref)) {
      return true;
    }
    const auto name = ref.substr(ref.rfind('/') == std::string::npos ? 0 : ref.rfind('/') + 1);
    const auto it = names.find(name);
    if (it == names.end()) {
      return false;
    }
    return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& path) {
      return path.ends_with("/" + ref) || path == ref;
    });
  }
};

class StaleRefsRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const auto root_text = knowledge::text_setting(store, "project_root");
    if (root_text.empty()) {
      // Nothing to check against: said once a store for the life of the
      // rule (a command's run, or the daemon's), not in every consolidation.
      if (m_told.insert(store.store_name()).second) {
        store.record(Action{"", "skipped", "", "", "",
                            "rules.stale-refs.project_root is not set for this store; no "
                            "reference was checked"});
      }
      return;
    }
    Project project{fs::path(root_text), {}, {}, {}, false};
    std::error_code error;
    if (!fs::is_directory(project.root, error)) {
      store.record(
          Action{"", "flagged", "", "", "",
                 "project_root " + root_text + " is not a folder; no reference was checked"});
      return;
    }
    const auto min_age = knowledge::int_setting(store, "min_age_days", 14);
    for (const Layer layer : {Layer::semantic, Layer::reference, Layer::procedural}) {
      for (const auto& path : store.files(layer)) {
        if (store.held(path)) {
          continue; // an undo brought it back as it was
        }
        const auto refs = references_of(store.body(path));
        if (refs.files.empty() && refs.symbols.empty()) {
          continue; // EVERGREEN
        }
        if (!project.loaded) {
          project.load();
        }
        std::vector<std::string> missing;
        std::size_t found = 0;
        for (const auto& file : refs.files) {
          if (project.has_file(file)) {
            ++found;
          } else {
            missing.push_back(file);
          }
        }
        for (const auto& symbol : refs.symbols) {
          if (project.words.contains(symbol)) {
            ++found;
          } else {
            missing.push_back(symbol + "()");
          }
        }
        if (missing.empty()) {
          continue; // FRESH
        }
        std::string listed;
        for (const auto& ref : missing) {
          listed += (listed.empty() ? "" : ", ") + ref;
        }
        if (found > 0) {
          store.record(
              Action{"", "flagged", "", path, "",
                     "partly stale, kept for review: " + listed + " not found in " + root_text});
          continue;
        }
        archive(store, layer, path, listed, root_text, min_age);
      }
    }
  }

private:
  std::set<std::string> m_told; // the stores told their project_root is missing

  // Moves a fully stale memory to archive/ whole, or says why it stays.
  static void archive(StoreView& store, Layer layer, const std::string& path,
                      const std::string& listed, const std::string& root, std::int64_t min_age) {
    std::string why_not;
    if (layer == Layer::procedural) {
      why_not = "procedural rules are never archived automatically";
    } else if (path.find('/') == std::string::npos) {
      why_not = "a topic file at the root is the agent's own, linked from its index";
    } else if (auto reason = knowledge::protected_reason(store, path); !reason.empty()) {
      why_not = reason;
    } else {
      const auto day = knowledge::Age::of(store, path).day();
      if (!day) {
        why_not = "its age is unknown";
      } else if (store.today().days_since(*day) < min_age) {
        why_not =
            "younger than " + std::to_string(min_age) + " days (made " + day->to_string() + ")";
      }
    }
    if (!why_not.empty()) {
      store.record(Action{"", "flagged", "", path, "",
                          "fully stale (" + listed + " not found in " + root +
                              "); not archived: " + why_not});
      return;
    }
    const auto base = store.layer_path(Layer::archive) + "/" + path;
    std::string target = base;
    for (int n = 2; store.exists(target) || store.held(target); ++n) {
      target = base.substr(0, base.size() - 3) + "-" + std::to_string(n) + ".md";
    }
    store.write(target, store.read(path));
    store.remove(path);
    store.record(Action{"", "archived", "", path, target,
                        "fully stale: every reference is gone from " + root + " (" + listed + ")"});
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(
    StaleRefsRule, "stale-refs", engram::Phase::prune,
    "archives memories whose every file and symbol reference is gone from the project", "0.1.0",
    false)
