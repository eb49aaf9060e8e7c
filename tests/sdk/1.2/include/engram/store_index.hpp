// StoreIndex: the batch and index queries a host may answer faster than a
// rule could from the core of StoreView. Optional: a host without one returns
// nullptr from StoreView::index(), and StoreView's helpers of the same names
// then compute each answer from the core (engram::definition, rule.hpp).
// Part of the plugin SDK; an abstract interface, so a plugin links nothing.
#pragma once

#include "engram/claim.hpp"
#include "engram/layer.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram {

// A claim of a file that an incoming claim duplicates or updates.
struct ClaimMatch {
  std::string path;                       // the file that holds it
  std::size_t index = 0;                  // its position in claims(body(path))
  std::string text;                       // its text
  ClaimKind kind = ClaimKind::factual;    // its kind
  Relation relation = Relation::distinct; // compare(incoming, text): duplicate or update
};

// Every answer here must equal its definition in engram::definition (what
// StoreView's helpers compute when the host has no index); only how fast it
// comes may differ. Since SDK 1.0; a later 1.x may only append virtuals.
class StoreIndex {
public:
  virtual ~StoreIndex() = default;

  // The claims of a file's current body, with kinds as `detail` asks.
  virtual std::vector<Claim> claims_of(std::string_view path, ClaimDetail detail) const = 0;

  // Every claim of the files of `layer` that `incoming` duplicates or updates.
  virtual std::vector<ClaimMatch> related_claims(std::string_view incoming, Layer layer,
                                                 ClaimDetail detail) const = 0;

  // related_claims for each of `incoming`, in order.
  virtual std::vector<std::vector<ClaimMatch>>
  related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                      ClaimDetail detail) const = 0;

  // The claims of related_claims that `incoming` duplicates, without its updates.
  virtual std::vector<ClaimMatch> duplicate_claims(std::string_view incoming, Layer layer,
                                                   ClaimDetail detail) const = 0;

  // A key of a file's current bytes (the host's is the git blob id).
  virtual std::string content_hash(std::string_view path) const = 0;

  // When a file was last modified on disk, in seconds since 1970-01-01 UTC.
  virtual std::optional<std::int64_t> modified(std::string_view path) const = 0;

  // The layer of the memory file at `path`.
  virtual std::optional<Layer> layer_of(std::string_view path) const = 0;

  // The model's revision, and the paths changed since one.
  virtual std::uint64_t revision() const = 0;
  virtual std::optional<std::vector<std::string>> changed_since(std::uint64_t revision) const = 0;

  // Replaces `count` bytes of a file's body at byte `at` with `text` in place.
  virtual void replace_in_body(std::string_view path, std::size_t at, std::size_t count,
                               std::string_view text) = 0;
};

} // namespace engram
