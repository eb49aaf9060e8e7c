// The file an agent keeps about its user (OpenClaw's USER.md, "About Your
// Human"). Its lines leave their owner unwritten ("- **Timezone:** …",
// "- Prefers short answers"), or call the user "User", while a daily note
// names the person ("Ana's timezone is now …", "Ana prefers short answers").
// Compared with the user written alike on both sides (taken out of both, or
// written "User" in both), a note's claim meets the line of the user file it
// restates or updates, as it would had both been written alike.
#pragma once

#include "engram/rule.hpp"
#include "engram/text.hpp"
#include "user_change.hpp"
#include "user_labels.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::episodic_decay {

namespace user_detail {

// Words that cannot follow a name as its verb does ("Ana and Ben moved"
// is about both of them, not Ana alone).
inline bool joins_names(std::string_view word) {
  static constexpr std::array<std::string_view, 6> k_joins{"and", "or", "nor", "with", "plus", "&"};
  return std::find(k_joins.begin(), k_joins.end(), word) != k_joins.end();
}

// Whether `rest` opens with a word in lower case that is not a conjunction:
// the verb after a subject ("prefers", "lives", "is").
inline bool opens_with_verb(std::string_view rest) {
  const auto end = rest.find(' ');
  const auto word = rest.substr(0, end);
  return !word.empty() && !joins_names(word) &&
         std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// The length of a leading "- ", "* " or "+ " list marker with its indent.
inline std::size_t marker_length(std::string_view text) {
  std::size_t start = text.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    return 0;
  }
  if (start + 1 < text.size() && (text[start] == '-' || text[start] == '*' || text[start] == '+') &&
      text[start + 1] == ' ') {
    start += 2;
  }
  return start;
}

// The length of a word at the start of `rest` that says when, not what
// ("now", "still"): "Bob now works at Shopify" says what "- Works at …"
// says of the user, with the verb that opens it.
inline std::size_t when_length(std::string_view rest) {
  static constexpr std::array<std::string_view, 6> k_when{"now ",      "still ",    "currently ",
                                                          "recently ", "nowadays ", "finally "};
  for (const auto word : k_when) {
    if (rest.starts_with(word)) {
      return word.size();
    }
  }
  return 0;
}

// How a line names the user as its subject: possessive ("Ana's …", "The
// user's …") or as the subject of a verb ("Ana prefers …").
struct Owner {
  bool possessive = false; // followed by "'s"
  std::size_t rest_at = 0; // where what it says of the user starts
  // Where a form written with the user goes on from: rest_at, or the "now"
  // before it ("Ana now prefers …"), which says the claim changed what the
  // user file states, where "still" or "currently" say nothing.
  std::size_t said_at = 0;
};

// How `rest` names the user, one of `owners` (lower case, longest first);
// nullopt when it opens with none of them.
inline std::optional<Owner> owner_at(std::string_view rest,
                                     const std::vector<std::string>& owners) {
  const std::string head = text::lower(rest.substr(0, 64));
  const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (const auto& owner : owners) {
    if (!std::string_view(head).starts_with(owner)) {
      continue;
    }
    const std::string_view after = rest.substr(owner.size());
    Owner found;
    if (after.starts_with("'s ")) {
      found = {true, owner.size() + 3, owner.size() + 3};
    } else if (after.starts_with("\u2019s ")) {
      const auto at = owner.size() + std::string_view("\u2019s ").size();
      found = {true, at, at};
    } else if (after.starts_with(' ') && opens_with_verb(after.substr(1))) {
      found.rest_at = owner.size() + 1 + when_length(after.substr(1));
      found.said_at = after.substr(1).starts_with("now ") ? owner.size() + 1 : found.rest_at;
    } else {
      continue;
    }
    if (found.rest_at < rest.size() && is_letter(rest[found.rest_at])) {
      return found;
    }
  }
  return std::nullopt;
}

// `text` with the user named as its subject taken out ("Ana's timezone is
// now X" → "Timezone is now X", "User prefers short answers" → "Prefers
// short answers"); nullopt when it names none of `owners`.
inline std::optional<std::string> without_owner(std::string_view text,
                                                const std::vector<std::string>& owners) {
  const std::size_t start = marker_length(text);
  const auto owner = owner_at(text.substr(start), owners);
  if (!owner) {
    return std::nullopt;
  }
  const std::string_view after = text.substr(start + owner->said_at);
  std::string out(text.substr(0, start));
  out += static_cast<char>(after[0] >= 'a' && after[0] <= 'z' ? after[0] - 'a' + 'A' : after[0]);
  out.append(after.substr(1));
  return out;
}

// A line without its ending and its emphasis marks (`**`, `_`).
inline std::string without_emphasis(std::string_view line) {
  std::string plain;
  for (char c : text::without_eol(line)) {
    if (c != '*' && c != '_') {
      plain += c;
    }
  }
  return plain;
}

// The label of a line `**Label:** value`, `**Label**: value` or `Label:
// value` (a few words before the colon), without its markup; "" otherwise.
inline std::string label_of(std::string_view line) {
  const std::string plain = without_emphasis(line);
  const auto colon = plain.find(": ");
  if (colon == std::string::npos || colon == 0 || colon > 40) {
    return {};
  }
  return plain.substr(0, colon);
}

// `text` with the user written as "User": the owner it names replaced
// ("Ana's pronouns are …" → "User's pronouns are …"), or, with `labels`,
// put before the label of a line that names none ("- **Timezone:** X" →
// "- User's Timezone: X"), as the user file's labels are the user's;
// nullopt otherwise. Both sides then name the user alike, so a label of
// one word ("Location: Lisbon") has a subject to be updated by.
inline std::optional<std::string> with_user(std::string_view text,
                                            const std::vector<std::string>& owners, bool labels) {
  const std::size_t start = marker_length(text);
  const std::string_view rest = text.substr(start);
  std::string out(text.substr(0, start));
  if (const auto owner = owner_at(rest, owners)) {
    out += owner->possessive ? "User's " : "User ";
    out.append(rest.substr(owner->said_at));
    return out;
  }
  const std::string label = labels ? label_of(rest) : std::string();
  if (label.empty()) {
    return std::nullopt;
  }
  return out + "User's " + without_emphasis(rest);
}

// A line of the user file written with the user as its subject: as
// with_user writes it, or, for a line that names no one and has no label,
// with "User" put before it ("- Smokes occasionally" → "- User smokes
// occasionally"), as the user file's lines are the user's. The parse alone
// would take such a line's first word ("Smokes", "Learning") for its
// subject, and a note naming the user would never meet it.
inline std::string as_users_line(std::string_view text, const std::vector<std::string>& owners) {
  if (auto owned = with_user(text, owners, true)) {
    return std::move(*owned);
  }
  const std::size_t start = marker_length(text);
  std::string plain = without_emphasis(text.substr(start));
  // A capital only because the line starts there ("Smokes", not "API").
  if (plain.size() > 1 && plain[0] >= 'A' && plain[0] <= 'Z' && plain[1] >= 'a' &&
      plain[1] <= 'z') {
    plain[0] = static_cast<char>(plain[0] - 'A' + 'a');
  }
  return std::string(text.substr(0, start)) + "User " + plain;
}

// A labelled line's label and its value as written, without the line's
// list marker and emphasis; both "" for a line without a label.
struct Labelled {
  std::string label;
  std::string value;
};

inline Labelled labelled(std::string_view line) {
  line = text::without_eol(line);
  line.remove_prefix(marker_length(line));
  std::string label = label_of(line);
  if (label.empty()) {
    return {};
  }
  std::string value = without_emphasis(line).substr(label.size() + 1);
  return {std::move(label), std::move(value)};
}

// The value of a labelled line whose label is one of `labels` (lower
// case); "" otherwise.
inline std::string labelled_value(std::string_view line,
                                  const std::vector<std::string_view>& labels) {
  auto found = labelled(line);
  const bool wanted =
      std::find(labels.begin(), labels.end(), text::lower(found.label)) != labels.end();
  return found.label.empty() || !wanted ? std::string() : std::move(found.value);
}

// The names a value gives ("Ana Silva" → "ana silva", "ana"; "Gojer,
// Bober" → "gojer", "bober"), lower case; a parenthesised remark, as
// templates leave them ("(optional)"), is no name.
inline void add_names(std::string_view value, std::vector<std::string>& names) {
  std::string current;
  const auto flush = [&] {
    const auto first = current.find_first_not_of(' ');
    const auto last = current.find_last_not_of(' ');
    if (first != std::string::npos && last + 1 - first >= 2) {
      const std::string name = text::lower(current.substr(first, last + 1 - first));
      names.push_back(name);
      if (const auto space = name.find(' '); space != std::string::npos) {
        names.push_back(name.substr(0, space));
      }
    }
    current.clear();
  };
  int depth = 0;
  for (char c : value) {
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      depth = std::max(0, depth - 1);
    } else if (depth == 0 && (c == ',' || c == '/' || c == ';')) {
      flush();
    } else if (depth == 0) {
      current += c;
    }
  }
  flush();
}

// The value of a labelled line ("- **City:** Osaka" → "osaka"), lower
// case, without a final full stop; "" for a line without a label.
inline std::string label_value(std::string_view line) {
  const std::string value = text::lower(without_final_stop(labelled(line).value));
  return value.substr(std::min(value.size(), value.find_first_not_of(' ')));
}

} // namespace user_detail

// The user file of a store and the owners its lines leave unwritten.
class UserFile {
public:
  // The profile's user file (`profile.user_file`), its lines and the names
  // it gives its user (its Name and What-to-call-them lines); empty when the
  // store has none. Rules never write it, so a run reads it once.
  static UserFile of(const StoreView& store) {
    UserFile file;
    const auto setting = store.setting("profile.user_file");
    const auto* path = setting ? std::get_if<std::string>(&*setting) : nullptr;
    if (path == nullptr || path->empty() || !store.exists(*path)) {
      return file;
    }
    file.m_path = *path;
    file.m_owners = {"the user", "user", "my human", "the human", "your human"};
    static const std::vector<std::string_view> k_name_labels{
        "name", "what to call them", "preferred name", "nickname", "nicknames", "goes by"};
    for (const auto& line : text::split_lines(store.read(*path))) {
      user_detail::add_names(user_detail::labelled_value(line, k_name_labels), file.m_owners);
    }
    std::sort(file.m_owners.begin(), file.m_owners.end(),
              [](const auto& a, const auto& b) { return a.size() > b.size(); });
    const auto claims = store.claims_of(*path, ClaimDetail::unclassified);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      const auto& text = claims[i].text;
      Line line{i,
                text,
                user_detail::without_owner(text, file.m_owners),
                user_detail::as_users_line(text, file.m_owners),
                text::lower(user_detail::labelled(text).label),
                user_detail::label_value(text),
                std::nullopt};
      line.kind = user_detail::kind_of_label(line.label);
      file.m_lines.push_back(std::move(line));
    }
    return file;
  }

  // The lines of the user file that `claim` duplicates or updates once the
  // user it names as its subject is written alike on both sides: taken out
  // of both, or written "User" in both (see with_user). A pair where neither
  // names the user is left out: related_claims compares those as written.
  // A claim that says the user moved or switched from a label's value
  // ("Kenji moved from Osaka to Kyoto" after "- **City:** Osaka") updates it.
  std::vector<ClaimMatch> matches(const StoreView& store, const Claim& claim) const {
    std::vector<ClaimMatch> found;
    if (m_path.empty()) {
      return found;
    }
    const Forms forms = forms_of(claim.text);
    for (const auto& line : m_lines) {
      const auto relation = relation_to(store, claim.text, forms, line);
      if (relation == Relation::duplicate || relation == Relation::update) {
        found.push_back(ClaimMatch{m_path, line.index, line.text, ClaimKind::factual, relation});
      }
    }
    return found;
  }

private:
  // One claim of the user file: as written, with the user it names taken
  // out, with the user written "User" (see as_users_line), and its label.
  struct Line {
    std::size_t index = 0;
    std::string text;
    std::optional<std::string> stripped;
    std::string owned;
    std::string label;               // lower case; "" when it has none
    std::string value;               // the label's, lower case (label_value)
    std::optional<std::size_t> kind; // the label's kind (user_labels.hpp)
  };

  // A claim's forms with the user written alike, and the value a change
  // it states leaves behind (when it is the user's own change).
  struct Forms {
    std::optional<std::string> stripped;
    std::optional<std::string> owned;
    std::string lowered_rest; // what it says of the user, lower case ("" when it names none)
    bool possessive = false;  // "Ana's …"
    std::string from;         // changed_from, of a claim naming the user
    std::vector<user_detail::SaidValue> said; // values said as a label's ("lives in Porto")
    std::string rest; // what it says of the user, as written ("" when it names none)
  };

  Forms forms_of(std::string_view text) const {
    Forms forms;
    forms.stripped = user_detail::without_owner(text, m_owners);
    forms.owned = user_detail::with_user(text, m_owners, false);
    const auto rest = text.substr(user_detail::marker_length(text));
    if (const auto owner = user_detail::owner_at(rest, m_owners)) {
      forms.lowered_rest = text::lower(rest.substr(owner->rest_at));
      forms.possessive = owner->possessive;
      forms.from = user_detail::changed_from(forms.lowered_rest);
      forms.rest = std::string(rest.substr(owner->rest_at));
      if (!owner->possessive) {
        forms.said = user_detail::said_values(forms.rest);
      }
    }
    return forms;
  }

  // The stronger of the verdicts on `text` (as `forms`) and `line`: with
  // the user taken out of both, or written "User" in both; else an update
  // when the user's change leaves the line's label value behind ("Ana moved
  // from …", "Ana's city changed from …", not "Ana's sister moved from …").
  static Relation relation_to(const StoreView& store, const std::string& text, const Forms& forms,
                              const Line& line) {
    Relation relation = Relation::distinct;
    if (forms.stripped || line.stripped) {
      relation = store.compare(forms.stripped.value_or(text), line.stripped.value_or(line.text));
    }
    if (forms.owned && relation != Relation::duplicate) {
      const auto as_users = store.compare(*forms.owned, line.owned);
      relation =
          as_users == Relation::duplicate || as_users == Relation::update ? as_users : relation;
    }
    const bool users_own = !forms.possessive || (!line.label.empty() &&
                                                 forms.lowered_rest.starts_with(line.label + " "));
    if (relation == Relation::distinct && users_own &&
        user_detail::left_behind(line.value, forms.from)) {
      relation = Relation::update;
    }
    if (relation == Relation::update && forms.possessive && !line.label.empty() &&
        forms.lowered_rest.starts_with(line.label + " ") &&
        adds_to(line, std::string_view(forms.lowered_rest).substr(line.label.size() + 1))) {
      relation = Relation::distinct; // "Sid's partner Kavya started …": Kavya's news
    }
    if (relation != Relation::duplicate) {
      relation = stronger(relation, as_label(store, forms, line));
    }
    return relation;
  }

  // The verdict on a value the claim says with the words of the line's
  // label ("Ana lives in Porto" against "- **Location:** Lisbon"), compared
  // as "User's location: Porto" with "User's Location: Lisbon". A new value
  // that opens with the line's ("Lisbon, with Ben") adds to it, and changes
  // nothing.
  static Relation as_label(const StoreView& store, const Forms& forms, const Line& line) {
    if (line.label.empty()) {
      return Relation::distinct;
    }
    const bool one_value = !line.kind || user_detail::label_kinds()[*line.kind].one_value;
    if (!forms.possessive && !forms.rest.empty() && one_value) {
      // Said to be new ("got a new phone, a Pixel 9"), a value that is not
      // the line's replaces it, however unlike it its words are.
      if (const auto value = user_detail::new_value_of(forms.rest, line.label); !value.empty()) {
        const auto relation = store.compare("User's " + line.label + ": " + value, line.owned);
        return relation == Relation::duplicate ? relation : Relation::update;
      }
      // Changed to another of its kind ("upgraded his phone to an iPhone 15").
      const auto changed = user_detail::changed_value_of(forms.rest, line.label);
      const auto relation =
          changed.empty() ? Relation::distinct
                          : store.compare("User's " + line.label + ": " + changed, line.owned);
      if (relation == Relation::duplicate || relation == Relation::update) {
        return relation;
      }
    }
    if (forms.possessive) {
      // "Pedro's birthday is on March 14" restates "- **Birthday:** 14 March"
      // as "User's birthday: March 14" does; an update was found as written.
      const auto value = user_detail::value_after_label(forms.rest, line.label);
      if (!value.empty() &&
          store.compare("User's " + line.label + ": " + value, line.owned) == Relation::duplicate) {
        return Relation::duplicate;
      }
    }
    for (const auto& said : forms.said) {
      if (!user_detail::kind_has_label(said.kind, line.label)) {
        continue;
      }
      const auto relation = store.compare("User's " + line.label + ": " + said.value, line.owned);
      const bool update = relation == Relation::update &&
                          user_detail::label_kinds()[said.kind].one_value &&
                          !adds_to(line, said.value);
      if (relation == Relation::duplicate || update) {
        return relation;
      }
    }
    return Relation::distinct;
  }

  // Whether `value` opens with the line's value ("Lisbon, with Ben" after
  // "Lisbon"): it says more of it, and changes nothing.
  static bool adds_to(const Line& line, std::string_view value) {
    const std::string lowered = text::lower(value);
    return !line.value.empty() &&
           (lowered.starts_with(line.value + " ") || lowered.starts_with(line.value + ","));
  }

  static Relation stronger(Relation a, Relation b) {
    const auto rank = [](Relation r) {
      return r == Relation::duplicate ? 2 : r == Relation::update ? 1 : 0;
    };
    return rank(b) > rank(a) ? b : a;
  }

  std::string m_path;
  std::vector<std::string> m_owners; // lower case, longest first
  std::vector<Line> m_lines;
};

} // namespace engram::episodic_decay
