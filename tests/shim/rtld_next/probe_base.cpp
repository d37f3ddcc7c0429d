// The definition of probe_value that the application links against.
extern "C" int probe_value() { return 1; }
