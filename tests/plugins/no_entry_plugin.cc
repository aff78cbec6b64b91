// A shared object that is not an airscope plugin: it exports neither entry
// point. plugin_test checks that loading it is refused with a clear message.
extern "C" int not_an_airscope_plugin(void) { return 42; }
