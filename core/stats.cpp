#include "stats.hpp"

namespace cv {

Stats &stats() noexcept {
    static Stats s;
    return s;
}

} // namespace cv
