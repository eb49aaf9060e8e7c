// Object id (see object_id.hpp).
#include "git/object_id.hpp"

#include "base/sha1.hpp"

namespace engram::git::detail {

std::string object_header(git_object_t type, std::size_t size) {
  std::string header = git_object_type2string(type);
  header += ' ';
  header += std::to_string(size);
  header += '\0';
  return header;
}

bool object_id(git_object_t type, std::string_view bytes, git_oid& out) {
  return sha1({object_header(type, bytes.size()), bytes}, out.id);
}

} // namespace engram::git::detail
