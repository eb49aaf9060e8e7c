// Pack: the pack format (git's Documentation/gitformat-pack) written
// directly — a header, each object whole and deflated, a SHA-1 of it all —
// and handed to libgit2's indexer, which checks every object and writes the
// pack and its index into the object database.
#include "git/pack.hpp"

#include "base/parallel.hpp"
#include "base/sha1.hpp"
#include "git/big_endian.hpp"
#include "git/deflate.hpp"
#include "git/libgit2.hpp"

#include <cstdint>
#include <filesystem>
#include <git2/odb_backend.h>
#include <string>
#include <unordered_set>

namespace engram::git::detail {

namespace {

namespace fs = std::filesystem;

// The pack object type of a blob (OBJ_BLOB).
constexpr unsigned k_blob_type = 3;

// An object's header: its type and inflated size, seven bits a byte after
// the first four, the high bit saying another byte follows.
void put_object_header(std::string& out, unsigned type, std::size_t size) {
  unsigned char byte = static_cast<unsigned char>((type << 4) | (size & 0x0fU));
  size >>= 4;
  while (size != 0) {
    out += static_cast<char>(byte | 0x80U);
    byte = static_cast<unsigned char>(size & 0x7fU);
    size >>= 7;
  }
  out += static_cast<char>(byte);
}

// Appends the pack's trailer: the SHA-1 of everything before it.
bool put_checksum(std::string& out) {
  git_oid digest;
  if (!sha1({out}, digest.id)) {
    return false;
  }
  out.append(reinterpret_cast<const char*>(digest.id), GIT_OID_RAWSZ);
  return true;
}

struct OidHash {
  std::size_t operator()(const git_oid& id) const {
    std::size_t value = 0;
    for (std::size_t i = 0; i < sizeof value; ++i) {
      value = (value << 8) | id.id[i];
    }
    return value;
  }
};
struct OidEqual {
  bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_equal(&a, &b) != 0; }
};

// How many packs the repository's object database holds.
std::size_t packs_in(git_repository* repository) {
  std::error_code error;
  std::size_t count = 0;
  const fs::path folder = fs::path(git_repository_commondir(repository)) / "objects" / "pack";
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".pack") {
      ++count;
    }
  }
  return count;
}

} // namespace

bool pack_worth_it(git_repository* repository, std::size_t count) {
  return count >= k_pack_at && packs_in(repository) < k_most_packs;
}

int write_pack(git_repository* repository, const std::vector<std::string_view>& blobs,
               std::vector<git_oid>& ids) {
  // Each blob hashed and deflated on every core (each alone is independent
  // of the others), then the pack put together in order.
  ids.assign(blobs.size(), git_oid{});
  std::vector<std::string> deflated(blobs.size());
  std::vector<int> codes(blobs.size(), 0);
  constexpr int k_deflate_failed = 1; // not a libgit2 code: those are 0 or negative
  constexpr std::size_t k_blobs_per_thread = 64;
  for_each_index(blobs.size(), k_blobs_per_thread, [&](std::size_t i) {
    codes[i] = git_odb_hash(&ids[i], blobs[i].data(), blobs[i].size(), GIT_OBJECT_BLOB);
    if (codes[i] == 0 && !put_deflated(deflated[i], blobs[i])) {
      codes[i] = k_deflate_failed;
    }
  });
  for (const int code : codes) {
    if (code == k_deflate_failed) {
      git_error_set_str(GIT_ERROR_ZLIB, "cannot deflate a blob for a pack");
      return GIT_ERROR;
    }
    if (code != 0) {
      // libgit2 said why on the thread that hashed; this one says what.
      git_error_set_str(GIT_ERROR_SHA, "cannot hash a blob for a pack");
      return code;
    }
  }
  // Each object once: the indexer refuses a pack that holds one twice.
  std::unordered_set<git_oid, OidHash, OidEqual> seen;
  std::vector<std::size_t> distinct;
  std::size_t size = 32;
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    if (seen.insert(ids[i]).second) {
      distinct.push_back(i);
      size += 16 + deflated[i].size();
    }
  }
  std::string pack;
  pack.reserve(size);
  pack += "PACK";
  put_be32(pack, 2);
  put_be32(pack, static_cast<std::uint32_t>(distinct.size()));
  for (const std::size_t i : distinct) {
    put_object_header(pack, k_blob_type, blobs[i].size());
    pack += deflated[i];
  }
  if (!put_checksum(pack)) {
    git_error_set_str(GIT_ERROR_SHA, "cannot compute a pack's checksum");
    return GIT_ERROR;
  }

  Owned<git_odb, git_odb_free> odb;
  if (const int code = git_repository_odb(&odb.pointer, repository); code != 0) {
    return code;
  }
  git_odb_writepack* writer = nullptr;
  fresh_errors();
  int code = git_odb_write_pack(&writer, odb.pointer, nullptr, nullptr);
  git_indexer_progress progress{};
  if (code == 0) {
    code = writer->append(writer, pack.data(), pack.size(), &progress);
  }
  if (code == 0) {
    code = writer->commit(writer, &progress);
  }
  if (writer != nullptr) {
    writer->free(writer);
  }
  if (code == 0) {
    // Lookups find the new pack at once, without first missing an object.
    code = git_odb_refresh(odb.pointer);
  }
  return code;
}

} // namespace engram::git::detail
