// Evidence: why a Deep Truth is in CORE.md — the sessions (episodic files, each
// with its day) that stated its claim, and the usage of the memory that holds
// it. Episodic files decay after months, so a promoted truth's evidence is
// kept in CORE.md itself, as a comment beside it, and read back on the next
// run: `<!-- evidence: 3 sessions over 7 days: 2026-11-01 episodic/a.md, … -->`.
#pragma once

#include "engram/date.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::promotion {

// One session that stated the claim: an episodic file and its day.
struct Session {
  Date day;
  std::string path; // store-relative; the session's identity

  bool operator==(const Session&) const = default;
};

// The usage of the memory a truth was promoted from.
struct MemoryEvidence {
  std::string path; // store-relative
  std::int64_t uses = 0;
  std::int64_t helpful = 0;
  std::int64_t unhelpful = 0;
  std::optional<Date> since; // its `created`

  bool operator==(const MemoryEvidence&) const = default;
};

// Everything that proves one truth.
struct Evidence {
  std::vector<Session> sessions;        // one per path, sorted by day then path
  std::optional<MemoryEvidence> memory; // when promoted (also) for its usage

  // Adds a session; a path already there keeps one entry (the newer reading of its day).
  void add(const Session& session) {
    const auto it = std::find_if(sessions.begin(), sessions.end(),
                                 [&](const Session& s) { return s.path == session.path; });
    if (it != sessions.end()) {
      it->day = session.day;
    } else {
      sessions.push_back(session);
    }
    std::sort(sessions.begin(), sessions.end(), [](const Session& a, const Session& b) {
      return a.day != b.day ? a.day < b.day : a.path < b.path;
    });
  }

  // Adds every session of `other`, and its memory evidence when it has one.
  void merge(const Evidence& other) {
    for (const auto& session : other.sessions) {
      add(session);
    }
    if (other.memory) {
      memory = other.memory;
    }
  }

  // Days from the first session to the last (0 with fewer than two).
  std::int64_t span_days() const {
    return sessions.size() < 2 ? 0 : sessions.back().day.days_since(sessions.front().day);
  }

  // How strongly it is proven: distinct sessions plus helpful uses.
  std::int64_t strength() const {
    return static_cast<std::int64_t>(sessions.size()) + (memory ? memory->helpful : 0);
  }

  // The first day of evidence: the first session, or the memory's creation.
  std::optional<Date> first_day() const {
    std::optional<Date> first;
    if (!sessions.empty()) {
      first = sessions.front().day;
    }
    if (memory && memory->since && (!first || *memory->since < *first)) {
      first = memory->since;
    }
    return first;
  }

  // The last day of evidence: the last session, or the memory's creation.
  std::optional<Date> last_day() const {
    std::optional<Date> last;
    if (!sessions.empty()) {
      last = sessions.back().day;
    }
    if (memory && memory->since && (!last || *memory->since > *last)) {
      last = memory->since;
    }
    return last;
  }

  bool operator==(const Evidence&) const = default;
};

// A path with the characters the comment uses as separators escaped.
inline std::string escape_path(std::string_view path) {
  std::string out;
  for (char c : path) {
    switch (c) {
    case '%':
      out += "%25";
      break;
    case ',':
      out += "%2C";
      break;
    case ';':
      out += "%3B";
      break;
    case '>':
      out += "%3E";
      break;
    case '\n':
      out += "%0A";
      break;
    default:
      out += c;
    }
  }
  return out;
}

// The path escape_path escaped.
inline std::string unescape_path(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const auto code = text.substr(i + 1, 2);
      const char c = code == "25"   ? '%'
                     : code == "2C" ? ','
                     : code == "3B" ? ';'
                     : code == "3E" ? '>'
                     : code == "0A" ? '\n'
                                    : '\0';
      if (c != '\0') {
        out += c;
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// The evidence as the comment beside its truth: `<!-- evidence: … -->`.
inline std::string evidence_comment(const Evidence& evidence) {
  std::string parts;
  if (!evidence.sessions.empty()) {
    const auto n = evidence.sessions.size();
    const auto span = evidence.span_days();
    parts += std::to_string(n) + (n == 1 ? " session" : " sessions") + " over " +
             std::to_string(span) + (span == 1 ? " day" : " days") + ": ";
    for (std::size_t i = 0; i < n; ++i) {
      parts += (i == 0 ? "" : ", ") + evidence.sessions[i].day.to_string() + " " +
               escape_path(evidence.sessions[i].path);
    }
  }
  if (evidence.memory) {
    const auto& m = *evidence.memory;
    parts += std::string(parts.empty() ? "" : "; ") + "memory " + escape_path(m.path) + ", " +
             std::to_string(m.uses) + " uses, " + std::to_string(m.helpful) + " helpful, " +
             std::to_string(m.unhelpful) + " unhelpful" +
             (m.since ? ", since " + m.since->to_string() : std::string());
  }
  return "<!-- evidence: " + parts + " -->";
}

// Splits `text` on `separator`.
inline std::vector<std::string_view> split_on(std::string_view text, std::string_view separator) {
  std::vector<std::string_view> out;
  while (true) {
    const auto at = text.find(separator);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) {
      return out;
    }
    text.remove_prefix(at + separator.size());
  }
}

// A whole number at the start of `text`, and the rest after it.
inline std::optional<std::int64_t> leading_count(std::string_view& text) {
  std::size_t i = 0;
  std::int64_t value = 0;
  while (i < text.size() && i < 15 && text[i] >= '0' && text[i] <= '9') {
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  if (i == 0) {
    return std::nullopt;
  }
  text.remove_prefix(i);
  return value;
}

// Reads an evidence comment back; nullopt when `comment` is not one engram wrote.
inline std::optional<Evidence> parse_evidence(std::string_view comment) {
  constexpr std::string_view open = "<!-- evidence: ";
  constexpr std::string_view close = " -->";
  if (!comment.starts_with(open) || !comment.ends_with(close)) {
    return std::nullopt;
  }
  comment = comment.substr(open.size(), comment.size() - open.size() - close.size());
  Evidence evidence;
  for (auto part : split_on(comment, "; ")) {
    if (part.starts_with("memory ")) {
      part.remove_prefix(7);
      const auto fields = split_on(part, ", ");
      if (fields.size() < 4) {
        return std::nullopt;
      }
      MemoryEvidence memory;
      memory.path = unescape_path(fields[0]);
      std::int64_t* counts[] = {&memory.uses, &memory.helpful, &memory.unhelpful};
      constexpr std::string_view units[] = {" uses", " helpful", " unhelpful"};
      for (std::size_t i = 0; i < 3; ++i) {
        auto field = fields[i + 1];
        const auto n = leading_count(field);
        if (!n || field != units[i]) {
          return std::nullopt;
        }
        *counts[i] = *n;
      }
      if (fields.size() > 4) {
        if (!fields[4].starts_with("since ") ||
            !(memory.since = Date::parse(fields[4].substr(6)))) {
          return std::nullopt;
        }
      }
      evidence.memory = memory;
      continue;
    }
    const auto colon = part.find(": ");
    if (colon == std::string_view::npos) {
      return std::nullopt;
    }
    for (const auto item : split_on(part.substr(colon + 2), ", ")) {
      const auto day =
          item.size() > 11 && item[10] == ' ' ? Date::parse(item.substr(0, 10)) : std::nullopt;
      if (!day) {
        return std::nullopt;
      }
      evidence.add(Session{*day, unescape_path(item.substr(11))});
    }
  }
  if (evidence.sessions.empty() && !evidence.memory) {
    return std::nullopt;
  }
  return evidence;
}

} // namespace engram::promotion
