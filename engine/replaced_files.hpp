// Replaced files: what an agent writes through a descriptor it keeps open.
// An agent that opened a memory file for appending (`exec 3>>WORKING.md`)
// goes on writing into that file after engram renames new bytes over it or
// removes it, and once the agent closes it, those lines would be gone with
// no name and no commit. So before a file is replaced or removed, it is given
// a second name in the state folder (`<state>/replaced/`), noted in a
// manifest with how many of its bytes engram has accounted for; carry_over()
// appends what was written after those bytes to the live file, where the
// next snapshot commits it as the agent's, and lets a kept file go once no
// descriptor can write to it any more.
#pragma once

#include "store/layout.hpp"

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// One file about to be replaced or removed.
struct Replacing {
  std::string path;        // store-relative
  std::uintmax_t size = 0; // how many of its bytes engram accounted for (it planned from them)
  std::string hash;        // store::content_hash of those bytes
};

// The files of one apply (or one `engram append`) kept under second names.
class ReplacedFiles {
public:
  // Kept in `<root>/<layout.state>/replaced`.
  ReplacedFiles(std::filesystem::path root, const store::Layout& layout);

  // Writes the manifest of `files` before any of them is touched; each is
  // kept by keep() just before its rename or removal. Throws engram::Error
  // when the manifest cannot be written (then nothing may be replaced).
  void begin(const std::vector<Replacing>& files);

  // Gives the `index`-th file of begin() its second name; false when it
  // could not (it is gone, or the link failed: said in the log).
  bool keep(std::size_t index);

  // Puts the file at `temporary` (beside it, on its file system) in the
  // place of the `index`-th file of begin(), keeping under the second name
  // whichever file was in place at that instant. Throws engram::Error when
  // it could not be put there (the temporary is then still ours to discard).
  void replace(std::size_t index, const std::filesystem::path& temporary);

  // Removes the `index`-th file of begin() from its place, keeping it under
  // its second name (a rename, so the place is never without a file when it
  // should have one); false when it was not there.
  bool move_aside(std::size_t index);

private:
  // The second name of the `index`-th file of begin().
  std::filesystem::path kept_name(std::size_t index) const;

  std::filesystem::path m_root;
  std::filesystem::path m_folder;
  std::string m_batch; // this apply's name: the manifest and its files start with it
  std::vector<std::string> m_paths;
};

// What carry_over() did.
struct CarriedOver {
  std::vector<std::string> paths; // the live files it appended to, store-relative
  std::size_t still_held = 0;     // kept files a writer may still write to
};

// Appends to each live file what was written into its kept file after the
// bytes engram accounted for, and lets go of every kept file no process
// holds open for writing (on Linux a read lease tells; elsewhere a kept file
// is let go a day after its last write). Whole lines only while a writer
// holds it. A kept file rewritten rather than appended to has its lines that
// the live file lacks appended. Runs under the store's run lock.
CarriedOver carry_over(const std::filesystem::path& root, const store::Layout& layout,
                       std::time_t now);

// True while any file is kept (a manifest is in the folder).
bool replaced_kept(const std::filesystem::path& root, const store::Layout& layout);

// True when a kept file holds bytes not carried over yet; one stat per kept
// file. The daemon asks while carry_over() left some held.
bool replaced_grew(const std::filesystem::path& root, const store::Layout& layout);

} // namespace engram::engine
