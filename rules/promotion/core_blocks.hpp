// Core blocks: the local-engine seed's always-loaded summaries (user_profile,
// project_context, behavioral_patterns, active_decisions, learned_preferences),
// each a list of claims within its own character limit and all of them within
// a total. Packing is at claim boundaries: a claim is shown whole or not at
// all (only a first claim too long for its block is cut, at a word boundary,
// with "…"), and a block that leaves claims out says how many. Pure.
#pragma once

#include "engram/text.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace engram::promotion {

// The most claims one block shows (the seed's "top 5").
inline constexpr std::size_t k_block_items = 5;

// One block's candidates, best first, each one line of text.
struct BlockInput {
  std::string name;               // e.g. "user_profile"
  std::vector<std::string> items; // ranked; the block shows a prefix of them
};

// One block as CORE.md shows it.
struct BlockOutput {
  std::string name;
  std::vector<std::string> lines; // its lines, without endings: items, then the note
  std::size_t shown = 0;          // candidates shown (a cut one included)
  std::size_t more = 0;           // candidates left out
  std::size_t chars = 0;          // code points of its lines, each with its newline
};

// The line of one shown claim.
inline std::string item_line(const std::string& item) {
  return "- " + item;
}

// The line that says what a block left out.
inline std::string more_line(std::size_t more) {
  return "- … and " + std::to_string(more) + " more not shown (over this block's limit)";
}

// The size of a line in a block: its code points and its newline.
inline std::size_t line_chars(const std::string& line) {
  return text::count_chars(line) + 1;
}

// `text` cut to at most `limit` code points at a word boundary, ending in "…";
// "" when not even one word fits.
inline std::string cut_at_word(const std::string& text, std::size_t limit) {
  if (limit < 2) {
    return {};
  }
  std::string kept;
  std::size_t chars = 0;
  std::size_t last_space = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts && ++chars > limit - 1) { // room for the "…"
      break;
    }
    if (text[i] == ' ') {
      last_space = i;
    }
    kept += text[i];
  }
  if (last_space == std::string::npos || last_space == 0) {
    return {};
  }
  kept.resize(last_space);
  while (!kept.empty() && (kept.back() == ' ' || kept.back() == ',' || kept.back() == ';')) {
    kept.pop_back();
  }
  return kept.empty() ? std::string() : kept + "…";
}

// Packs one block into `budget` code points.
inline BlockOutput pack_block(const BlockInput& input, std::size_t budget) {
  BlockOutput out;
  out.name = input.name;
  const std::size_t candidates = input.items.size();
  std::size_t used = 0;
  // Room for the note about what is left out, when anything would be.
  const auto note_room = [&](std::size_t shown) {
    return shown < candidates ? line_chars(more_line(candidates - shown)) : 0;
  };
  // The longest prefix of the ranked claims that fits with its note.
  std::size_t fits = std::min(candidates, k_block_items);
  for (;; --fits) {
    std::size_t size = note_room(fits);
    for (std::size_t i = 0; i < fits; ++i) {
      size += line_chars(item_line(input.items[i]));
    }
    if (size <= budget || fits == 0) {
      used = size - note_room(fits);
      break;
    }
  }
  for (std::size_t i = 0; i < fits; ++i) {
    out.lines.push_back(item_line(input.items[i]));
  }
  if (fits == 0 && candidates > 0) {
    // A first claim too long for the block: as much of it as fits, cut between words.
    const auto room = budget > note_room(1) + 3 ? budget - note_room(1) - 3 : 0; // "- ", "\n"
    const auto cut = cut_at_word(input.items[0], room);
    if (!cut.empty()) {
      out.lines.push_back(item_line(cut));
      used += line_chars(out.lines.back());
    }
  }
  out.shown = out.lines.size();
  out.more = candidates - out.shown;
  if (out.more > 0) {
    out.lines.push_back(more_line(out.more));
    used += line_chars(out.lines.back());
  }
  out.chars = used;
  return out;
}

// The size a block would have with nothing left out (its first k_block_items).
inline std::size_t full_size(const BlockInput& input) {
  std::size_t size = 0;
  for (std::size_t i = 0; i < input.items.size() && i < k_block_items; ++i) {
    size += line_chars(item_line(input.items[i]));
  }
  if (input.items.size() > k_block_items) {
    size += line_chars(more_line(input.items.size() - k_block_items));
  }
  return size;
}

// Packs every non-empty block: each within `block_limit`, all within
// `total_limit`. When the blocks together would pass the total, every block
// gets the same share of it (water-filling: what a small block does not need
// goes to the others), so no block is starved by the ones before it.
inline std::vector<BlockOutput> pack_blocks(const std::vector<BlockInput>& inputs,
                                            std::size_t block_limit, std::size_t total_limit) {
  std::vector<std::size_t> wanted;
  for (const auto& input : inputs) {
    wanted.push_back(input.items.empty() ? 0 : std::min(full_size(input), block_limit));
  }
  const auto total_at = [&](std::size_t cap) {
    std::size_t sum = 0;
    for (const auto w : wanted) {
      sum += std::min(w, cap);
    }
    return sum;
  };
  // The largest cap whose total fits (binary search: the total grows with the cap).
  std::size_t low = 0;
  std::size_t high = block_limit;
  while (low < high) {
    const std::size_t mid = low + (high - low + 1) / 2;
    if (total_at(mid) <= total_limit) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  std::vector<BlockOutput> out;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].items.empty()) {
      continue;
    }
    out.push_back(pack_block(inputs[i], std::min(wanted[i], low)));
  }
  return out;
}

} // namespace engram::promotion
