#if defined(__linux__) && defined(__LP64__)
#define _GNU_SOURCE
#include "CInjectableSymbols.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// The Swift runtime's demangler (in every Swift process: the library links the runtime).
extern char *swift_demangle(const char *mangled, size_t length, char *output,
                            size_t *outputSize, uint32_t flags);

// A loaded file's functions that belong to `Injections` (their mangled names hold
// "10InjectionsV"), sorted by offset: read once per file, kept mapped for the process.
struct indexed_file {
    uintptr_t base;
    size_t count;
    struct function { uintptr_t offset; const char *name; } *functions;
};

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static struct indexed_file files[64];
static size_t file_count;

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

static int by_offset(const void *a, const void *b) {
    uintptr_t x = ((const struct function *)a)->offset, y = ((const struct function *)b)->offset;
    return x < y ? -1 : x > y;
}

// Collects the `Injections` functions of the ELF image `file` of `length` bytes. Every offset
// read is checked against the file's length.
static void index_image(const unsigned char *file, size_t length, struct indexed_file *into) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)file;
    if (length < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
        header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_shentsize != sizeof(Elf64_Shdr) ||
        header->e_shoff > length ||
        (size_t)header->e_shnum * sizeof(Elf64_Shdr) > length - header->e_shoff)
        return;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + header->e_shoff);
    size_t capacity = 0;
    for (int s = 0; s < header->e_shnum; s++) {
        const Elf64_Shdr *table = &sections[s];
        if ((table->sh_type != SHT_SYMTAB && table->sh_type != SHT_DYNSYM) ||
            table->sh_link >= header->e_shnum || table->sh_offset > length ||
            table->sh_size > length - table->sh_offset)
            continue;
        const Elf64_Shdr *strings = &sections[table->sh_link];
        if (strings->sh_offset > length || strings->sh_size > length - strings->sh_offset)
            continue;
        const char *names = (const char *)file + strings->sh_offset;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(file + table->sh_offset);
        for (size_t i = 0; i < table->sh_size / sizeof(Elf64_Sym); i++) {
            if (ELF64_ST_TYPE(symbols[i].st_info) != STT_FUNC || symbols[i].st_value == 0 ||
                symbols[i].st_name >= strings->sh_size)
                continue;
            const char *name = names + symbols[i].st_name;
            size_t room = strings->sh_size - symbols[i].st_name;
            if (!memchr(name, 0, room) || !strstr(name, "10InjectionsV")) continue;
            // A merged function (`…Tm`) serves several identical getters: it names none of them.
            size_t length = strlen(name);
            if (length > 2 && name[length - 2] == 'T' && name[length - 1] == 'm') continue;
            if (into->count == capacity) {
                capacity = capacity ? capacity * 2 : 256;
                void *grown = realloc(into->functions, capacity * sizeof *into->functions);
                if (!grown) return;
                into->functions = grown;
            }
            into->functions[into->count++] = (struct function){symbols[i].st_value, name};
        }
    }
    qsort(into->functions, into->count, sizeof *into->functions, by_offset);
}

// The index of the file loaded at `object`, made on first use (under `index_lock`).
static const struct indexed_file *indexed(const struct loaded_object *object) {
    for (size_t i = 0; i < file_count; i++)
        if (files[i].base == object->base) return &files[i];
    if (file_count == sizeof files / sizeof files[0]) return NULL;
    struct indexed_file *file = &files[file_count++];
    *file = (struct indexed_file){object->base, 0, NULL};
    int descriptor = open(object->path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return file;
    struct stat status;
    if (fstat(descriptor, &status) == 0 && status.st_size > 0) {
        void *image = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, descriptor, 0);
        // Kept mapped: the index points at its names.
        if (image != MAP_FAILED) index_image(image, (size_t)status.st_size, file);
    }
    close(descriptor);
    return file;
}

int ik_function_name(const void *address, char *buffer, size_t size) {
    struct loaded_object object = {(uintptr_t)address, 0, NULL};
    if (size == 0 || !dl_iterate_phdr(find_object, &object)) return 0;
    struct function key = {object.address - object.base, NULL};
    pthread_mutex_lock(&index_lock);
    const struct indexed_file *file = indexed(&object);
    const struct function *found =
        file && file->count
            ? bsearch(&key, file->functions, file->count, sizeof key, by_offset)
            : NULL;
    // Two names at one address (getters the optimiser folded into one) name no one key.
    if (found && ((found > file->functions && found[-1].offset == key.offset) ||
                  (found + 1 < file->functions + file->count && found[1].offset == key.offset)))
        found = NULL;
    pthread_mutex_unlock(&index_lock);
    if (!found) return 0;
    char *demangled = swift_demangle(found->name, strlen(found->name), NULL, NULL, 0);
    strncpy(buffer, demangled ? demangled : found->name, size - 1);
    buffer[size - 1] = 0;
    free(demangled);
    return 1;
}

#else
#include "CInjectableSymbols.h"

int ik_function_name(const void *address, char *buffer, size_t size) {
    (void)address, (void)buffer, (void)size;
    return 0;
}
#endif
