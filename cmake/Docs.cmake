# The man pages and the shell completions, written by the built engram from
# the definitions they document (`engram manual`, `engram completion`), so
# they cannot drift from the command line or the key table. They go to
# share/ in the build tree, under the names they are installed with.
set(ENGRAM_DOCS_DIR ${PROJECT_BINARY_DIR}/share)

# Each: the file under share/, what engram is asked, and whether it is gzipped
# (Debian's man pages are).
set(engram_docs
  "man/man1/engram.1.gz|manual engram|ON"
  "man/man5/engram.toml.5.gz|manual engram.toml|ON"
  "bash-completion/completions/engram|completion bash|OFF"
  "zsh/vendor-completions/_engram|completion zsh|OFF"
  "fish/vendor_completions.d/engram.fish|completion fish|OFF")

set(engram_doc_outputs)
foreach(doc IN LISTS engram_docs)
  string(REPLACE "|" ";" parts "${doc}")
  list(GET parts 0 file)
  list(GET parts 1 args)
  list(GET parts 2 gzip)
  get_filename_component(folder ${ENGRAM_DOCS_DIR}/${file} DIRECTORY)
  add_custom_command(OUTPUT ${ENGRAM_DOCS_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${folder}
    COMMAND ${CMAKE_COMMAND} -DENGRAM=$<TARGET_FILE:engram> "-DARGS=${args}"
            -DOUTPUT=${ENGRAM_DOCS_DIR}/${file} -DGZIP=${gzip}
            -P ${PROJECT_SOURCE_DIR}/cmake/WriteOutput.cmake
    DEPENDS engram ${PROJECT_SOURCE_DIR}/cmake/WriteOutput.cmake
    COMMENT "Writing share/${file}" VERBATIM)
  list(APPEND engram_doc_outputs ${ENGRAM_DOCS_DIR}/${file})
  get_filename_component(destination ${CMAKE_INSTALL_DATADIR}/${file} DIRECTORY)
  install(FILES ${ENGRAM_DOCS_DIR}/${file} DESTINATION ${destination})
endforeach()
add_custom_target(engram-docs ALL DEPENDS ${engram_doc_outputs})
