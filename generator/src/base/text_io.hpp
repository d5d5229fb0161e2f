// Text in and out: whole files, JSON strings, shell command lines, splitting, capitals.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dualrate {

// s as a JSON string literal, quoted and escaped.
std::string json_string(const std::string& s);
void write_file(const std::filesystem::path& path, const std::string& text);
std::string read_file(const std::filesystem::path& path);
// argv as one shell command line, each word quoted where the shell would split or expand it.
std::string command_line(const std::vector<std::string>& argv);
// The non-empty parts of text between separators.
std::vector<std::string> split(const std::string& text, char separator);
// text in capitals (ASCII), as a verdict is printed: PASS.
std::string upper(std::string text);

}  // namespace dualrate
