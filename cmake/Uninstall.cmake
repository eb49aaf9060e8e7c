# `make uninstall`: removes what `cmake --install` put in place, as the
# install_manifest.txt it wrote lists it (MANIFEST), then the folders of
# engram's own (a path with a folder named engram) left empty. Anything else
# in the prefix, and the shared folders such as share/man, is left alone.
# Run with `cmake -DMANIFEST=FILE -P cmake/Uninstall.cmake`.
if(NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "${MANIFEST}: no such file: nothing was installed from this build "
                      "(`make install` writes it)")
endif()
file(STRINGS "${MANIFEST}" installed)
set(folders)
foreach(file IN LISTS installed)
  set(file "$ENV{DESTDIR}${file}")
  if(EXISTS "${file}" OR IS_SYMLINK "${file}")
    message(STATUS "Removing ${file}")
    file(REMOVE "${file}")
  endif()
  get_filename_component(folder "${file}" DIRECTORY)
  list(APPEND folders "${folder}")
endforeach()
# Deepest first, so a folder's empty subfolders are gone before it is looked at.
list(REMOVE_DUPLICATES folders)
list(SORT folders ORDER DESCENDING)
foreach(folder IN LISTS folders)
  while(folder MATCHES "/engram(/|$)" AND IS_DIRECTORY "${folder}")
    file(GLOB left LIST_DIRECTORIES true "${folder}/*" "${folder}/.*")
    if(left)
      break()
    endif()
    message(STATUS "Removing ${folder}/")
    # Empty, as just checked: REMOVE_RECURSE is the call that removes a folder.
    file(REMOVE_RECURSE "${folder}")
    get_filename_component(folder "${folder}" DIRECTORY)
  endwhile()
endforeach()
