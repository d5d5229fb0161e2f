#include "a2l/elf.hpp"

#include <cxxabi.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace dualrate {

const ProgramSymbol* ProgramImage::find(const std::string& name) const {
  const ProgramSymbol* found = nullptr;
  for (const ProgramSymbol& s : objects) {
    if (s.name != name) continue;
    if (found && found->address != s.address)
      throw ProgramError(
          fmt::format("{}: two objects named {}, at {:#x} and {:#x}", file, name, found->address, s.address),
          "the program must hold one instance of the model's objects: include the generated "
          "header, whose objects are inline variables, not a copy of them");
    found = &s;
  }
  return found;
}

std::optional<std::string> ProgramImage::bytes(std::uint64_t address, std::uint64_t size) const {
  for (const ProgramSection& s : sections)
    if (address >= s.address && address - s.address <= s.bytes.size() && size <= s.bytes.size() - (address - s.address))
      return s.bytes.substr(address - s.address, size);
  return std::nullopt;
}

namespace {

// The C++ name of a symbol (`motor::calibration`), or the symbol itself.
std::string demangled(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(symbol, nullptr, nullptr, &status), &std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(symbol);
}

// An open ELF descriptor and its file, closed together.
class ElfHandle {
 public:
  explicit ElfHandle(const std::string& path) : path_(path) {
    if (elf_version(EV_CURRENT) == EV_NONE) throw ProgramError("libelf is out of date", "reinstall libelf");
    fd_ = open(path.c_str(), O_RDONLY);
    if (fd_ < 0) throw ProgramError(fmt::format("cannot read {}", path), "give the program's ELF file with --elf");
    elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
    if (!elf_ || elf_kind(elf_) != ELF_K_ELF) {
      close_all();
      throw ProgramError(fmt::format("{} is not an ELF file", path),
                         "give the linked program (the .elf that arm-none-eabi-g++ or `verify --keep` writes)");
    }
  }
  ~ElfHandle() { close_all(); }
  ElfHandle(const ElfHandle&) = delete;
  ElfHandle& operator=(const ElfHandle&) = delete;
  Elf* get() const { return elf_; }

 private:
  void close_all() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
    elf_ = nullptr;
    fd_ = -1;
  }
  std::string path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

// The defined data objects of the symbol table `scn`.
void read_objects(Elf* elf, Elf_Scn* scn, const GElf_Shdr& header, std::vector<ProgramSymbol>& out) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!data || header.sh_entsize == 0) return;
  const std::size_t count = header.sh_size / header.sh_entsize;
  for (std::size_t i = 0; i < count; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym)) continue;
    if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF) continue;
    const char* name = elf_strptr(elf, header.sh_link, sym.st_name);
    if (name && *name) out.push_back({demangled(name), sym.st_value, sym.st_size});
  }
}

// The allocated section `scn`'s contents, when it has some in the file.
void read_section(Elf_Scn* scn, const GElf_Shdr& header, std::vector<ProgramSection>& out) {
  if (!(header.sh_flags & SHF_ALLOC) || header.sh_type == SHT_NOBITS || header.sh_size == 0) return;
  ProgramSection section{header.sh_addr, {}};
  for (Elf_Data* data = elf_getdata(scn, nullptr); data; data = elf_getdata(scn, data))
    if (data->d_buf) section.bytes.append(static_cast<const char*>(data->d_buf), data->d_size);
  out.push_back(std::move(section));
}

}  // namespace

ProgramImage read_elf(const std::string& path) {
  const ElfHandle elf(path);
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(elf.get(), &ehdr)) throw ProgramError(fmt::format("{}: no ELF header", path), "give the program");
  if (ehdr.e_type == ET_REL)
    throw ProgramError(fmt::format("{} is an object file, not a linked program: its addresses are not yet known", path),
                       "link it, and give the program's ELF file with --elf");
  ProgramImage image;
  image.file = path;
  image.little_endian = ehdr.e_ident[EI_DATA] == ELFDATA2LSB;
  image.address_bits = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
  for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn; scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header)) continue;
    if (header.sh_type == SHT_SYMTAB) read_objects(elf.get(), scn, header, image.objects);
    read_section(scn, header, image.sections);
  }
  if (image.objects.empty())
    throw ProgramError(fmt::format("{} has no symbol table", path),
                       "link without -s and do not strip it: the A2L file's addresses come from its symbols");
  return image;
}

}  // namespace dualrate
