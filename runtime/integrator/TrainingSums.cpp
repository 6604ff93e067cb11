//===- runtime/integrator/TrainingSums.cpp - Map training in tile order ---===//

#include "integrator/TrainingSums.h"

#include <algorithm>

namespace vf {

std::vector<double> TrainingSums::acquire() {
  std::vector<double> B;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Free.empty()) {
      B = std::move(Free.back());
      Free.pop_back();
    }
  }
  B.assign(2 * Bins, 0.0);
  return B;
}

void TrainingSums::submit(std::uint64_t Tile, std::vector<double> Buffer) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Waiting.emplace(Tile, std::move(Buffer));
  for (auto It = Waiting.find(Next); It != Waiting.end();
       It = Waiting.find(Next)) {
    const std::vector<double> &B = It->second;
    for (std::size_t I = 0; I < Total.size(); ++I)
      Total[I] += B[I];
    Free.push_back(std::move(It->second));
    Waiting.erase(It);
    ++Next;
  }
}

} // namespace vf
