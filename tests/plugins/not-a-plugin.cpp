// A plain shared library with no engram symbols, like any other .so a user
// might leave in a plugin folder: the host must refuse it as not a plugin.

// The library's one exported function, so it is a real, loadable library.
extern "C" __attribute__((visibility("default"))) int not_a_plugin_answer() {
  return 42;
}
