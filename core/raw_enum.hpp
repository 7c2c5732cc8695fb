// The value a C caller stored in an enum-typed field or parameter, read as the 32-bit integer it is. C lets a
// caller store any int there; in C++ loading an enum object whose value lies outside the enum's range is undefined
// behaviour, so the library never loads one: it copies the object's bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cv {

template <class E> int32_t rawEnum(const E &object) noexcept {
    static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int32_t), "public enums are 32-bit");
    int32_t value;
    std::memcpy(&value, &object, sizeof(value));
    return value;
}

} // namespace cv
