# lit configuration for vegasflow's compiler tests.
import os
import lit.formats

config.name = "vegasflow"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".vf", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.vf_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.vf_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Tests never write to the user's cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "cache")
# Expected output must not depend on whether the machine has a GPU.
config.environment["VF_DISABLE_CUDA"] = "1"

config.substitutions.append(("%vegasc", os.path.join(config.vf_tools_dir, "vegasc")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%testdata", os.path.join(config.vf_src_root, "tests", "testdata")))

# ptxas checks run where the CUDA toolkit is installed and are unsupported
# elsewhere.
if config.ptxas and os.path.exists(config.ptxas) and not config.ptxas.endswith("NOTFOUND"):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
