/* quotectl's start, before the Swift runtime's: what the runtime would otherwise do on every
   run at a cost that is most of a draw's margin over a C program (docs/benchmarks.md).

   - The arguments. On Linux the runtime finds argv by reading /proc/self/maps and walking up
     the stack from environ, in a static initializer that runs whether or not the program asks.
     glibc hands argc and argv to every initializer, so this one keeps them, and the two
     functions the runtime's CommandLine.cpp would provide are defined here instead: the
     linker then takes nothing from that file of libswiftCore.a (a symbol it still needed would
     stop the link, naming both definitions).
   - The backtracer. At start the runtime looks for its swift-backtrace helper beside the
     executable (eight stats), which an installed quotectl never has (it comes with the Swift
     toolchain): unless the user set SWIFT_BACKTRACE, it is told there is none to use. */
#include <stdlib.h>
#include "quotectl_start.h"

static char **arguments;
static int argument_count;
static char **overridden_arguments;
static int overridden_count;
static int backtrace_setting_ours;

static const char backtrace_variable[] = "SWIFT_BACKTRACE";

/* Defined by the linker in a dynamically linked program only. */
extern const char _DYNAMIC[] __attribute__((weak));

/* Priority 101, the first an initializer may have: before the runtime's, which have none, in
   the static link that installs quotectl. Linked dynamically (a debug build, and the test
   runner that links quotectl's objects), the runtime's library has started before any of the
   program's initializers and keeps CommandLine.cpp's own copy: the environment is then left
   alone, since nothing would read the setting and no main here would take it back. */
__attribute__((constructor(101))) static void quotectl_start(int argc, char **argv, char **envp) {
    (void)envp;
    argument_count = argc;
    arguments = argv;
    if (_DYNAMIC == NULL && getenv(backtrace_variable) == NULL)
        backtrace_setting_ours = setenv(backtrace_variable, "enable=no,swift-backtrace=/dev/null", 0) == 0;
}

void quotectl_start_done(void) {
    if (backtrace_setting_ours) unsetenv(backtrace_variable);
    backtrace_setting_ours = 0;
}

/* The runtime's CommandLine.arguments and unsafeArgv ask this in the static link (the Swift
   calling convention: with a pointer argument alone, the same registers as C's). */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
    if (overridden_arguments) {
        *count = overridden_count;
        return overridden_arguments;
    }
    *count = argument_count;
    return arguments;
}

/* What a host that starts Swift code itself (the REPL, a JIT) sets instead. */
__attribute__((swiftcall)) void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overridden_arguments = argv;
    overridden_count = argc;
}
