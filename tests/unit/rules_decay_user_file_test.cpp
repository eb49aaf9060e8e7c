// The user file's owner, written alike on both sides of a comparison: a
// daily note names the user ("Ana's timezone …") where USER.md leaves them
// unwritten ("- **Timezone:** …") or calls them "User".
#include "../../rules/episodic-decay/user_file.hpp"

#include <catch2/catch.hpp>

using engram::episodic_decay::user_detail::add_names;
using engram::episodic_decay::user_detail::as_users_line;
using engram::episodic_decay::user_detail::labelled_value;
using engram::episodic_decay::user_detail::with_user;
using engram::episodic_decay::user_detail::without_owner;

namespace {

const std::vector<std::string> k_owners{"ana ferreira", "the user", "user", "ana"};

} // namespace

TEST_CASE("without_owner takes out the user named as the subject, and nothing else") {
  CHECK(without_owner("Ana's timezone is now America/Denver.", k_owners) ==
        "Timezone is now America/Denver.");
  CHECK(without_owner("- Ana prefers short answers.", k_owners) == "- Prefers short answers.");
  CHECK(without_owner("The user\u2019s pronouns are she/her.", k_owners) ==
        "Pronouns are she/her.");
  CHECK(without_owner("Ana Ferreira works at Figma.", k_owners) == "Works at Figma.");
  CHECK(without_owner("User is vegetarian.", k_owners) == "Is vegetarian.");
  // Another person, the user with someone else, a word that only starts like a name.
  CHECK_FALSE(without_owner("Ben prefers short answers.", k_owners));
  CHECK_FALSE(without_owner("Ana and Ben are vegetarian.", k_owners));
  CHECK_FALSE(without_owner("Anatomy class is on Mondays.", k_owners));
  CHECK_FALSE(without_owner("Users can reset their password.", k_owners));
  CHECK_FALSE(without_owner("Ana: call back tomorrow.", k_owners));
}

TEST_CASE("with_user writes the owner as User, and puts it before a label when asked") {
  CHECK(with_user("Ana's location is now Porto.", k_owners, false) ==
        "User's location is now Porto.");
  CHECK(with_user("- Ana is no longer vegetarian.", k_owners, false) ==
        "- User is no longer vegetarian.");
  CHECK(with_user("- **Location:** Lisbon", k_owners, true) == "- User's Location: Lisbon");
  CHECK(with_user("- Timezone: UTC", k_owners, true) == "- User's Timezone: UTC");
  // A note's own label is compared as written; a line without a label or an owner has none.
  CHECK_FALSE(with_user("- **Location:** Lisbon", k_owners, false));
  CHECK_FALSE(with_user("- Prefers short answers.", k_owners, true));
}

TEST_CASE("a line of the user file that names no one is written as the user's") {
  CHECK(as_users_line("- Smokes occasionally.", k_owners) == "- User smokes occasionally.");
  CHECK(as_users_line("- **Learning** Spanish.", k_owners) == "- User learning Spanish.");
  CHECK(as_users_line("Allergic to peanuts.", k_owners) == "User allergic to peanuts.");
  // A capital that is not only the line's start stays.
  CHECK(as_users_line("- API keys live in 1Password.", k_owners) ==
        "- User API keys live in 1Password.");
  // A line naming the user, or with a label, is written as with_user writes it.
  CHECK(as_users_line("- Ana prefers short answers.", k_owners) == "- User prefers short answers.");
  CHECK(as_users_line("- **Location:** Lisbon", k_owners) == "- User's Location: Lisbon");
}

TEST_CASE("the names a user file gives are read from its Name and What-to-call-them lines") {
  const std::vector<std::string_view> labels{"name", "what to call them"};
  std::vector<std::string> names;
  add_names(labelled_value("- **Name:** Ana Ferreira\n", labels), names);
  add_names(labelled_value("- **What to call them:** Gojer, Bober (friends only)\n", labels),
            names);
  add_names(labelled_value("- **Pronouns:** she/her\n", labels), names);
  add_names(labelled_value("What to call them: Ana\n", labels), names);
  add_names(labelled_value("- **Name:** _(optional)_\n", labels), names);
  CHECK(names == std::vector<std::string>{"ana ferreira", "ana", "gojer", "bober", "ana"});
}

TEST_CASE("a change from a label's value is read from what the note says the user did") {
  using engram::episodic_decay::user_detail::changed_from;
  using engram::episodic_decay::user_detail::label_value;
  using engram::episodic_decay::user_detail::left_behind;
  CHECK(changed_from("moved from Osaka to Kyoto.") == "osaka");
  CHECK(changed_from("switched from Vim to VS Code as his editor") == "vim");
  CHECK(changed_from("timezone changed from Europe/Lisbon to Asia/Tokyo") == "europe/lisbon");
  CHECK(changed_from("moved the team offsite from Lisbon to Porto").empty());
  CHECK(changed_from("removed from the list to save space").empty());
  CHECK(changed_from("moved to Porto").empty());
  CHECK(changed_from("replaced his Pixel 6 with a Pixel 8.") == "pixel 6");
  CHECK(changed_from("sold the Volvo V70 and bought a Tesla Model 3.") == "volvo v70");
  CHECK(changed_from("swapped Vim for Helix") == "vim");
  CHECK(changed_from("replaced the battery.").empty());
  CHECK(label_value("- **City:** Osaka.\n") == "osaka");
  CHECK(label_value("- Location: Gothenburg, Sweden") == "gothenburg, sweden");
  CHECK(label_value("- Prefers short answers.").empty());
  CHECK(left_behind("gothenburg, sweden", "gothenburg"));
  CHECK(left_behind("osaka", "osaka"));
  CHECK_FALSE(left_behind("osaka prefecture", "osaka"));
  CHECK_FALSE(left_behind("osaka", ""));
}

TEST_CASE("a word that says when is no part of what the note says of the user") {
  // But "now", which says it changed: "Ana now goes climbing on Fridays" is
  // no habit kept beside "- Goes climbing on Tuesdays".
  CHECK(without_owner("Ana now works at Shopify.", k_owners) == "Now works at Shopify.");
  CHECK(with_user("Ana now works at Shopify.", k_owners, false) == "User now works at Shopify.");
  CHECK(without_owner("Ana still lives in Lisbon.", k_owners) == "Lives in Lisbon.");
  CHECK(with_user("Ana currently uses Neovim.", k_owners, false) == "User uses Neovim.");
  // "no longer" says what: it is kept.
  CHECK(without_owner("Ana no longer drinks coffee.", k_owners) == "No longer drinks coffee.");
}

TEST_CASE("a value said with the words of a label is read as that label's") {
  using engram::episodic_decay::user_detail::kind_of_label;
  using engram::episodic_decay::user_detail::label_kinds;
  using engram::episodic_decay::user_detail::said_values;
  const auto said = [](std::string_view rest, std::string_view label) -> std::string {
    const auto kind = kind_of_label(label);
    for (const auto& value : said_values(rest)) {
      if (kind && value.kind == *kind) {
        return value.value;
      }
    }
    return "-";
  };
  CHECK(said("lives in Gothenburg, Sweden.", "location") == "Gothenburg, Sweden");
  CHECK(said("moved to Porto", "city") == "Porto");
  CHECK(said("is now a staff engineer at Moniepoint.", "job") == "staff engineer at Moniepoint");
  CHECK(said("was promoted to design director at Figma.", "role") == "design director at Figma");
  CHECK(said("works at Shopify", "employer") == "Shopify");
  CHECK(said("has gone fully vegan.", "diet") == "fully vegan");
  CHECK(said("speaks Portuguese and English", "languages") == "Portuguese and English");
  CHECK(said("was born on 4 May", "birthday") == "4 May");
  // Words that say something else than the label's value.
  CHECK(said("is a morning person", "job") == "-");
  CHECK(said("is tired today", "diet") == "-");
  CHECK(said("was born in Lisbon", "birthday") == "-");
  CHECK(said("used to live in Porto", "location") == "-");
  CHECK(said("moved to the backend team", "location") == "-");
  CHECK(said("works for a small startup", "employer") == "-");
  CHECK(said("uses Firefox", "pronouns") == "-");
  CHECK_FALSE(kind_of_label("hometown"));
  // "work" holds a job or an employer.
  using engram::episodic_decay::user_detail::kind_has_label;
  CHECK(kind_has_label(*kind_of_label("job"), "work"));
  CHECK(kind_has_label(*kind_of_label("employer"), "work"));
  CHECK_FALSE(label_kinds()[*kind_of_label("pets")].one_value);
}

TEST_CASE("a new value of a label is read where the note says it is new") {
  using engram::episodic_decay::user_detail::changed_from;
  using engram::episodic_decay::user_detail::new_value_of;
  CHECK(new_value_of("got a new phone, a Pixel 9.", "phone") == "a Pixel 9");
  CHECK(new_value_of("has a new editor: Neovim", "editor") == "Neovim");
  CHECK(new_value_of("got a new phone case", "phone").empty());
  // The user's own thing changed for another, named; not a setting or a part of it.
  using engram::episodic_decay::user_detail::changed_value_of;
  CHECK(changed_value_of("upgraded his phone to an iPhone 15.", "phone") == "an iPhone 15");
  CHECK(changed_value_of("changed her editor to Zed", "editor") == "Zed");
  CHECK(changed_value_of("switched her phone to silent mode", "phone").empty());
  CHECK(changed_value_of("upgraded the phone to iOS 18", "phone").empty());
  CHECK(changed_value_of("upgraded his laptop to 32 GB", "phone").empty());
  CHECK(changed_value_of("said he upgraded his phone to an iPhone 15", "phone").empty());
  CHECK(changed_from("left jetbrains and joined yandex in january") == "jetbrains");
  CHECK(changed_from("left stripe for shopify") == "stripe");
  CHECK(changed_from("left the keys at home").empty());
  using engram::episodic_decay::user_detail::value_after_label;
  CHECK(value_after_label("birthday is on March 14.", "birthday") == "March 14");
  CHECK(value_after_label("Location is Porto", "location") == "Porto");
  CHECK(value_after_label("birthday party is on Friday", "birthday").empty());
  CHECK(value_after_label("sister's birthday is on May 2", "birthday").empty());
}
