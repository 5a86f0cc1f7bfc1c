// The name of the function at an address, read from the symbol table of the file it was loaded
// from, for InjectableKit's key names (see KeyNames): outside Apple platforms a keypath's
// description shows its getter's address, not the property it reads.
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_SYMBOLS_H
#define C_INJECTABLE_SYMBOLS_H

#include <stddef.h>

/// Writes into `buffer` (of `size` bytes) the demangled name of the function that starts at
/// `address`, as its file's symbol table names it, and returns 1; returns 0 where the file has
/// no such symbol (a stripped binary) or the platform keeps no ELF symbol table (Apple's).
int ik_function_name(const void *address, char *buffer, size_t size);

#endif
