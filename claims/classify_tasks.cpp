// Classification of what a claim is for rather than what it states: a to-do
// or open item, or a line about the session itself. Checked before the
// keyword rules (classify.cpp), as the seed's decision tree asks; kept apart
// as their own word lists and shapes.
#include "claims/classify_detail.hpp"
#include "claims/normalise.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace engram::claims {
namespace {

// Labels that open a to-do or an open item ("TODO: …", "Next step: …").
constexpr std::array<std::string_view, 24> k_task_labels = {
    "todo",          "to do",     "to-do",      "fixme",        "tbd",         "xxx",
    "next",          "next step", "next steps", "next session", "action",      "action item",
    "follow up",     "follow-up", "followup",   "later",        "pending",     "blocked",
    "open question", "question",  "reminder",   "waiting on",   "waiting for", "task",
};

// Phrases that open a sentence stating an intention, not a fact.
constexpr std::array<std::string_view, 14> k_task_openers = {
    "need to", "needs to",        "still need to", "should look into", "look into",  "follow up",
    "i'll",    "i will",          "we'll",         "we need to",       "waiting on", "waiting for",
    "todo",    "remember to ask",
};

// Words that put an instruction in the near future: "Investigate it
// tomorrow" is a to-do, "Investigate flaky tests first" a rule.
constexpr std::array<std::string_view, 14> k_soon = {
    "tomorrow",    "tonight",     "next week", "next month",     "next quarter",
    "next year",   "next sprint", "this week", "this afternoon", "this evening",
    "later today", "after lunch", "next time", "next session",
};

// Words that name a day a deadline falls on: "Rotate the key before
// Friday" is a to-do, where "Rotate the key every Friday" is a rule.
constexpr std::array<std::string_view, 10> k_deadline_days = {
    "monday",   "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday",  "tomorrow",  "tonight",  "eod",
};

// Words that open an instruction not to do something: it holds, it is no errand.
constexpr std::array<std::string_view, 5> k_forbidding = {"never", "dont", "don't", "do", "avoid"};

// Verbs of errands, which an instruction for the near future opens with.
constexpr std::array<std::string_view, 14> k_errands = {
    "remind", "investigate", "call",  "book",     "buy",       "order", "email",
    "finish", "draft",       "renew", "schedule", "benchmark", "pick",  "fix",
};

// Words that name something about a session rather than the world.
constexpr std::array<std::string_view, 35> k_session_labels = {
    "session",      "session id",
    "source",       "channel",
    "client",       "model",
    "duration",     "trigger",
    "language",     "started",
    "ended",        "resumed",
    "user",         "participants",
    "date",         "time",
    "time zone",    "tokens",
    "tokens used",  "cost",
    "host",         "working directory",
    "platform",     "agent",
    "messages",     "transcript",
    "compacted",    "context window",
    "tools",        "tools used",
    "conversation", "thread",
    "device",       "session type",
    "heartbeat",
};

// Phrases that open a line describing the session itself.
constexpr std::array<std::string_view, 15> k_session_openers = {
    "conversation with",
    "session with",
    "chat with",
    "call with",
    "resumed from",
    "continued from",
    "this session",
    "in this session",
    "session type",
    "heartbeat run",
    "heartbeat check",
    "heartbeat ok",
    "compacted the context",
    "context compacted",
    "context was compacted",
};

// Phrases that open a line telling what the agent did in the session.
constexpr std::array<std::string_view, 18> k_activity_openers = {
    "working on",  "worked on",   "spent",      "started on",  "continued on", "finished",
    "helped",      "paired with", "looked at",  "looked into", "debugging",    "investigating",
    "talked with", "talked to",   "spoke with", "spoke to",    "chatted with", "met with",
};

// Words that measure how long the session spent on something ("for an hour").
constexpr std::array<std::string_view, 6> k_session_spans = {
    "minute", "minutes", "hour", "hours", "half-hour", "while",
};

// Words that date a line to the session itself ("today", "this morning").
constexpr std::array<std::string_view, 5> k_session_days = {
    "today", "tonight", "morning", "afternoon", "evening",
};

// Whether a phrase of `Phrases` opens `words`.
template <const auto& Phrases> bool opened_by(const std::vector<std::string>& words) {
  return std::any_of(Phrases.begin(), Phrases.end(), [&](std::string_view phrase) {
    std::size_t i = 0;
    for (const auto& part : words_of(phrase)) {
      if (i >= words.size() || words[i] != part) {
        return false;
      }
      ++i;
    }
    return true;
  });
}

// Whether `words` set a deadline on a day ("before Friday", "by tomorrow").
bool sets_deadline(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if ((words[i] == "by" || words[i] == "before") &&
        detail::is_one_of<k_deadline_days>(words[i + 1])) {
      return true;
    }
  }
  return false;
}

// Whether `words` say how long the session spent ("for an hour", "for 20
// minutes", "for half an hour", "for a couple of hours").
bool spans_session(const std::vector<std::string>& words) {
  constexpr std::size_t k_reach = 4; // words from "for" to the span's
  for (std::size_t i = 0; i < words.size(); ++i) {
    for (std::size_t j = i + 1; words[i] == "for" && j < words.size() && j <= i + k_reach; ++j) {
      if (detail::is_one_of<k_session_spans>(words[j])) {
        return true;
      }
    }
  }
  return false;
}

// A session label's name without what counts it ("Cost so far", "Total tokens").
std::string_view counted_label(std::string_view name) {
  if (name.starts_with("total ")) {
    name.remove_prefix(6);
  }
  for (std::string_view suffix : {" so far", " total", " used"}) {
    if (name.ends_with(suffix)) {
      name.remove_suffix(suffix.size());
    }
  }
  return name;
}

} // namespace

namespace detail {

// Whether the claim is a to-do or an open item: a task box, a task label
// ("TODO:", "Next step:"), or a sentence opening with an intention ("Need to …").
bool is_task(std::string_view text) {
  const auto line = strip_line_start(text.substr(0, text.find('\n')));
  const auto words = words_of(strip_line_markup(line));
  // A checklist step that recurs ("- [ ] Check the logs after each release")
  // is a rule; any other task box is a to-do.
  const bool recurring = std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return w == "each" || w == "every" || w == "always" || w == "whenever";
  });
  const auto start = text.find_first_not_of(" \t-*+>");
  const auto raw = start == std::string_view::npos ? std::string_view() : text.substr(start);
  if (raw.starts_with("[ ]") || raw.starts_with("[x]") || raw.starts_with("[X]")) {
    return !recurring;
  }
  if (!words.empty() && (words[0] == "todo" || words[0] == "fixme")) {
    return true;
  }
  if (const auto label = label_of(line); label && is_one_of<k_task_labels>(label->first)) {
    return true;
  }
  if (opened_by<k_task_openers>(words)) {
    return true;
  }
  // A question to put to someone, or an instruction for the near future.
  const bool question = !words.empty() && words[0] == "ask" &&
                        (std::find(words.begin(), words.end(), "whether") != words.end() ||
                         std::find(words.begin(), words.end(), "about") != words.end());
  static const PhraseSet k_soon_phrases(k_soon);
  const bool errand = !words.empty() && (starts_imperative(line) || is_one_of<k_errands>(words[0]));
  const bool due = k_soon_phrases.found_in(words) ||
                   (sets_deadline(words) && !is_one_of<k_forbidding>(words[0]));
  return question || (errand && !recurring && due);
}

// Whether the claim is about the session itself: a session label
// ("**Session ID**: …", "Model: …") or a line naming the conversation.
bool is_session_metadata(std::string_view text) {
  const auto line = strip_line_start(text.substr(0, text.find('\n')));
  if (const auto label = label_of(line)) {
    const auto& name = label->first;
    // "User: ryan" names the session's user; "User: data scientist, focused
    // on observability" says who the user is, which holds after the session.
    constexpr std::size_t k_user_name_words = 3;
    if (name == "user" && words_of(label->second).size() > k_user_name_words) {
      return false;
    }
    // A label that is a session word, or opens with a phrase of two ("Context window at end").
    const bool prefixed =
        std::any_of(k_session_labels.begin(), k_session_labels.end(), [&](std::string_view phrase) {
          return phrase.find(' ') != std::string_view::npos &&
                 name.starts_with(std::string(phrase) + " ");
        });
    if (is_one_of<k_session_labels>(counted_label(name)) || prefixed ||
        name.starts_with("session ") || name.ends_with(" of the session")) {
      return true;
    }
  }
  const auto words = words_of(strip_line_markup(line));
  // "Working on the refund flow today": what the session did, not what
  // holds after it ("Working on weekends needs approval" names no day).
  const bool activity =
      opened_by<k_activity_openers>(words) &&
      (spans_session(words) || std::any_of(words.begin(), words.end(), [](const std::string& w) {
         return is_one_of<k_session_days>(w);
       }));
  return activity || opened_by<k_session_openers>(words);
}

} // namespace detail
} // namespace engram::claims
