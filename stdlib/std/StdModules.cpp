//===- stdlib/std/StdModules.cpp - Index of the embedded std modules ------===//
//
// Maps `import "std/NAME"` to the module text embedded by bin2cpp, so the
// compiler never reads the standard library from disk.
//
//===----------------------------------------------------------------------===//

#include <cstring>
#include <string>

#define VF_STD_MODULE(NAME)                                                    \
  extern "C" const unsigned char vf_std_##NAME[];                              \
  extern "C" const unsigned long vf_std_##NAME##_len;
VF_STD_MODULE(channels)
VF_STD_MODULE(genz)
VF_STD_MODULE(hadronic)
VF_STD_MODULE(phasespace)
VF_STD_MODULE(pdg)
VF_STD_MODULE(physics)
VF_STD_MODULE(qcd)
VF_STD_MODULE(special)
VF_STD_MODULE(spinors)
#undef VF_STD_MODULE

namespace vf {

struct StdModuleText {
  const char *Name;
  const unsigned char *Text;
  const unsigned long *Len;
};

static const StdModuleText StdModules[] = {
    {"channels", vf_std_channels, &vf_std_channels_len},
    {"genz", vf_std_genz, &vf_std_genz_len},
    {"hadronic", vf_std_hadronic, &vf_std_hadronic_len},
    {"phasespace", vf_std_phasespace, &vf_std_phasespace_len},
    {"pdg", vf_std_pdg, &vf_std_pdg_len},
    {"physics", vf_std_physics, &vf_std_physics_len},
    {"qcd", vf_std_qcd, &vf_std_qcd_len},
    {"special", vf_std_special, &vf_std_special_len},
    {"spinors", vf_std_spinors, &vf_std_spinors_len},
};

/// Returns the text of std module \p Name (without "std/"), or false.
bool lookupStdModule(const char *Name, const char **Text, unsigned long *Len) {
  for (const StdModuleText &M : StdModules) {
    if (std::strcmp(M.Name, Name) == 0) {
      *Text = reinterpret_cast<const char *>(M.Text);
      *Len = *M.Len;
      return true;
    }
  }
  return false;
}

std::string stdModuleNames() {
  std::string Names;
  for (const StdModuleText &M : StdModules)
    Names += std::string(Names.empty() ? "" : ", ") + "std/" + M.Name;
  return Names;
}

} // namespace vf
