#if defined(__linux__) && defined(__LP64__)
#define _GNU_SOURCE
#include "CInjectableSymbols.h"
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// The Swift runtime's demangler (in every Swift process: the library links the runtime).
extern char *swift_demangle(const char *mangled, size_t length, char *output,
                            size_t *outputSize, uint32_t flags);

struct loaded_object {
    uintptr_t address;
    uintptr_t base;
    const char *path;
};

// Finds the loaded object whose segments hold `address`.
static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct loaded_object *object = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && object->address >= start &&
            object->address < start + segment->p_memsz) {
            object->base = info->dlpi_addr;
            object->path = info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
            return 1;
        }
    }
    return 0;
}

// The name of the function symbol at `offset` in the ELF image `file` of `length` bytes, or
// NULL. Every offset read is checked against the file's length.
static const char *symbol_at(const unsigned char *file, size_t length, uintptr_t offset) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)file;
    if (length < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
        header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_shentsize != sizeof(Elf64_Shdr) ||
        header->e_shoff > length ||
        (size_t)header->e_shnum * sizeof(Elf64_Shdr) > length - header->e_shoff)
        return NULL;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + header->e_shoff);
    for (int s = 0; s < header->e_shnum; s++) {
        const Elf64_Shdr *table = &sections[s];
        if ((table->sh_type != SHT_SYMTAB && table->sh_type != SHT_DYNSYM) ||
            table->sh_link >= header->e_shnum || table->sh_offset > length ||
            table->sh_size > length - table->sh_offset)
            continue;
        const Elf64_Shdr *strings = &sections[table->sh_link];
        if (strings->sh_offset > length || strings->sh_size > length - strings->sh_offset)
            continue;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(file + table->sh_offset);
        size_t count = table->sh_size / sizeof(Elf64_Sym);
        for (size_t i = 0; i < count; i++) {
            if (ELF64_ST_TYPE(symbols[i].st_info) != STT_FUNC || symbols[i].st_value != offset ||
                symbols[i].st_name >= strings->sh_size)
                continue;
            const char *name = (const char *)file + strings->sh_offset + symbols[i].st_name;
            if (memchr(name, 0, strings->sh_size - symbols[i].st_name)) return name;
        }
    }
    return NULL;
}

int ik_function_name(const void *address, char *buffer, size_t size) {
    struct loaded_object object = {(uintptr_t)address, 0, NULL};
    if (size == 0 || !dl_iterate_phdr(find_object, &object)) return 0;
    int descriptor = open(object.path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    struct stat status;
    int found = 0;
    if (fstat(descriptor, &status) == 0 && status.st_size > 0) {
        size_t length = (size_t)status.st_size;
        void *file = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
        if (file != MAP_FAILED) {
            const char *mangled = symbol_at(file, length, object.address - object.base);
            char *demangled = mangled ? swift_demangle(mangled, strlen(mangled), NULL, NULL, 0) : NULL;
            const char *name = demangled ? demangled : mangled;
            if (name) {
                strncpy(buffer, name, size - 1);
                buffer[size - 1] = 0;
                found = 1;
            }
            free(demangled);
            munmap(file, length);
        }
    }
    close(descriptor);
    return found;
}

#else
#include "CInjectableSymbols.h"

int ik_function_name(const void *address, char *buffer, size_t size) {
    (void)address, (void)buffer, (void)size;
    return 0;
}
#endif
