// The integration schemes the generator knows, by name.
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct SchemeInfo {
  const char* name;
  const char* runtime_class;  // class template in the runtime, instantiated with the model
  const char* header;         // runtime header that defines it
  int order;
  const char* summary;
};

const std::vector<SchemeInfo>& schemes();
const SchemeInfo* find_scheme(const std::string& name);
std::vector<std::string> scheme_names();

}  // namespace dualrate
