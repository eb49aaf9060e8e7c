// The labels agents give the user's lines in a user file ("- **Location:**
// Lisbon", "- **Job:** Data analyst at Flutterwave") and the words a daily
// note says the same value with ("Ana lives in Lisbon", "Ana works as a data
// analyst at Flutterwave"). A note's claim said so is compared with the line
// as "User's Location: Porto" would be: a restatement is a duplicate, a new
// value an update.
#pragma once

#include "engram/text.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::episodic_decay::user_detail {

// `value` without the full stop and spaces that end it: a value is compared
// without the sentence it ends.
inline std::string_view without_final_stop(std::string_view value) {
  while (!value.empty() && (value.back() == '.' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  return value;
}

// What a value must look like for the words before it to say the label's
// value: "is a nurse at St Mary's" is a job, "is a morning person" is not.
enum class ValueShape {
  any,
  named,     // opens with a capital or a digit: a place or a company ("Porto", "Shopify")
  workplace, // names where: " at " or " for " ("a product manager at Flutterwave")
  diet,      // one of k_diets ("vegetarian")
  date,      // opens with a digit or a month ("on 4 May", "May 4")
  pronouns,  // has a slash ("she/her")
};

// Words that open what a note says of the user, and the shape their value has.
struct Opener {
  std::string_view words; // lower case, with the space after them
  ValueShape shape = ValueShape::any;
};

// One kind of line: the labels agents give it, lower case, and its openers.
// A kind that holds several values (pets) is restated by a note, never
// updated: "has a dog" adds to "- **Pets:** a cat named Miso".
struct LabelKind {
  std::vector<std::string_view> labels;
  std::vector<Opener> openers;
  bool one_value = true;
};

inline const std::vector<LabelKind>& label_kinds() {
  using enum ValueShape;
  static const std::vector<LabelKind> k_kinds{
      {{"location", "city", "current city", "home city", "home", "based in", "lives in",
        "residence"},
       {{"lives in ", named},
        {"is based in ", named},
        {"is living in ", named},
        {"resides in ", named},
        {"moved to ", named},
        {"has moved to ", named},
        {"relocated to ", named},
        {"has relocated to ", named}}},
      {{"job", "role", "occupation", "work", "position", "title", "job title", "profession"},
       {{"works as a "},
        {"works as an "},
        {"works as "},
        {"is a ", workplace},
        {"is an ", workplace},
        {"is working as a "},
        {"is working as an "},
        {"was promoted to "},
        {"has been promoted to "},
        {"got promoted to "}}},
      {{"employer", "company", "works at", "works for", "workplace", "work"},
       {{"works at ", named},
        {"works for ", named},
        {"is employed by ", named},
        {"is employed at ", named},
        {"is working at ", named},
        {"is working for ", named}}},
      {{"languages", "language", "speaks"}, {{"speaks "}}},
      {{"diet", "dietary", "dietary restrictions", "food"},
       {{"is ", diet},
        {"eats ", diet},
        {"went ", diet},
        {"has gone ", diet},
        {"became ", diet},
        {"has become ", diet}}},
      {{"birthday", "born", "date of birth", "birth date", "dob"},
       {{"was born on ", date}, {"was born ", date}}},
      {{"pronouns"}, {{"uses ", pronouns}, {"goes by ", pronouns}}},
      {{"partner", "spouse", "wife", "husband", "married to"},
       {{"is married to "}, {"is dating "}, {"is engaged to "}}},
      {{"pets", "pet", "animals"}, {{"has "}}, false},
  };
  return k_kinds;
}

// The kind of a line with `label` (lower case), or nullopt when agents'
// labels name no kind this knows.
inline std::optional<std::size_t> kind_of_label(std::string_view label) {
  const auto& kinds = label_kinds();
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto& labels = kinds[i].labels;
    if (std::find(labels.begin(), labels.end(), label) != labels.end()) {
      return i;
    }
  }
  return std::nullopt;
}

// Whether the kind `kind` counts `label` (lower case) among its labels: a
// label may name more than one ("work" is a job and an employer).
inline bool kind_has_label(std::size_t kind, std::string_view label) {
  const auto& labels = label_kinds()[kind].labels;
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// Whether `written` (a value as the note wrote it) has the shape `shape`.
inline bool has_shape(std::string_view written, ValueShape shape) {
  static constexpr std::array<std::string_view, 11> k_diets{
      "vegetarian", "vegan", "pescatarian", "gluten-free", "keto",      "kosher",
      "halal",      "paleo", "flexitarian", "omnivore",    "dairy-free"};
  static constexpr std::array<std::string_view, 12> k_months{
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  const std::string lowered = text::lower(written);
  const std::string_view value = lowered;
  switch (shape) {
  case ValueShape::any:
    return true;
  case ValueShape::named:
    return !written.empty() &&
           ((written[0] >= 'A' && written[0] <= 'Z') || (written[0] >= '0' && written[0] <= '9'));
  case ValueShape::workplace:
    return value.find(" at ") != std::string_view::npos ||
           value.find(" for ") != std::string_view::npos;
  case ValueShape::diet: {
    auto rest = value.starts_with("a ") ? value.substr(2) : value;
    for (const std::string_view how : {"fully ", "strictly ", "completely "}) {
      rest = rest.starts_with(how) ? rest.substr(how.size()) : rest;
    }
    const auto word = rest.substr(0, rest.find_first_of(" .,;"));
    return std::find(k_diets.begin(), k_diets.end(), word) != k_diets.end();
  }
  case ValueShape::date: {
    const auto rest = value.starts_with("on ") ? value.substr(3) : value;
    return (!rest.empty() && rest[0] >= '0' && rest[0] <= '9') ||
           std::any_of(k_months.begin(), k_months.end(),
                       [&](std::string_view m) { return rest.starts_with(m); });
  }
  case ValueShape::pronouns:
    return value.find('/') != std::string_view::npos;
  }
  return false;
}

// A value said of the user with the words of a kind of line: the kind, and
// the value as written ("Porto" of "lives in Porto"), without a final full stop.
struct SaidValue {
  std::size_t kind = 0;
  std::string value;
};

// The values `rest` (what a claim says of the user, as written) says with
// the openers of some kind of line; one at most per kind.
inline std::vector<SaidValue> said_values(std::string_view written) {
  std::vector<SaidValue> out;
  // A time word after the verb says when, not what: "is now a staff
  // engineer at …" says what "is a staff engineer at …" says.
  std::string rest(written);
  for (const std::string_view verb : {"is ", "has "}) {
    if (text::lower(rest).starts_with(std::string(verb) + "now ")) {
      rest.erase(verb.size(), 4);
    }
  }
  const std::string lowered = text::lower(rest);
  const auto& kinds = label_kinds();
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    for (const auto& opener : kinds[i].openers) {
      if (!std::string_view(lowered).starts_with(opener.words)) {
        continue;
      }
      std::string value(without_final_stop(std::string_view(rest).substr(opener.words.size())));
      if (!value.empty() && has_shape(value, opener.shape)) {
        out.push_back(SaidValue{i, std::move(value)});
        break;
      }
    }
  }
  return out;
}

// The value a claim gives as a new one of `label` (lower case): "a Pixel 9"
// of "got a new phone, a Pixel 9", "Neovim" of "has a new editor: Neovim";
// "" when it gives none.
inline std::string new_value_of(std::string_view rest, const std::string& label) {
  const std::string lowered = text::lower(rest);
  for (const std::string_view after : {", ", ": ", " is ", " - "}) {
    const std::string words = "new " + label + std::string(after);
    const auto at = lowered.find(words);
    if (at == std::string::npos || (at > 0 && lowered[at - 1] != ' ')) {
      continue;
    }
    return std::string(without_final_stop(rest.substr(at + words.size())));
  }
  return {};
}

// The thing a claim says the user's own `label` was changed for: "an
// iPhone 15" of "upgraded his phone to an iPhone 15"; "" when it says none.
// Only a named thing: "switched her phone to silent mode" and "upgraded his
// laptop to 32 GB" change a setting or a part of the same one.
inline std::string changed_value_of(std::string_view rest, const std::string& label) {
  const std::string lowered = text::lower(rest);
  for (const std::string_view verb : {"upgraded ", "changed ", "switched ", "updated "}) {
    for (const std::string_view whose : {"his ", "her ", "their ", "my "}) {
      const std::string words = std::string(verb) + std::string(whose) + label + " to ";
      if (!lowered.starts_with(words)) {
        continue;
      }
      const auto value = without_final_stop(rest.substr(words.size()));
      auto name = value;
      for (const std::string_view article : {"a ", "an ", "the "}) {
        if (text::lower(name.substr(0, article.size())) == article) {
          name.remove_prefix(article.size());
          break;
        }
      }
      // A capital in its first word: "Pixel 8", "iPhone 15".
      const auto first = name.substr(0, name.find(' '));
      const bool named =
          std::any_of(first.begin(), first.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
      return named ? std::string(value) : std::string();
    }
  }
  return {};
}

// The value a possessive claim gives its label with "is" ("March 14" of
// "birthday is on March 14", with the label "birthday"), without the
// preposition before it and a final full stop; "" when it gives none.
inline std::string value_after_label(std::string_view rest, const std::string& label) {
  const std::string lowered = text::lower(rest);
  const std::string opening = label + " is ";
  if (label.empty() || !lowered.starts_with(opening)) {
    return {};
  }
  std::string_view value = rest.substr(opening.size());
  for (const std::string_view before : {"on ", "at ", "in "}) {
    if (text::lower(value.substr(0, before.size())) == before) {
      value.remove_prefix(before.size());
      break;
    }
  }
  return std::string(without_final_stop(value));
}

} // namespace engram::episodic_decay::user_detail
