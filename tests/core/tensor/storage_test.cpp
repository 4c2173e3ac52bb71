// Tests of tensor storage (core/tensor/storage.cpp). SPDX-License-Identifier: MIT
#include "tensor/tensor.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace gradstep;

TEST_CASE("storage is 64-byte aligned, and tiny tensors live inline")
{
    Tensor big = Tensor::empty(Shape{1000});
    CHECK(reinterpret_cast<std::uintptr_t>(big.rawData()) % 64 == 0);
    Tensor tiny = Tensor::zeros(Shape{2});
    CHECK(tiny.at(0) == 0.0);
    CHECK(tiny.at(1) == 0.0);
}

#ifndef GRADSTEP_NO_STORAGE_CACHE
TEST_CASE("a freed large block is reused for the next tensor of the same size")
{
    const void* first = nullptr;
    {
        Tensor t = Tensor::empty(Shape{4096});
        first = t.rawData();
    }
    Tensor again = Tensor::empty(Shape{4096});
    CHECK(again.rawData() == first);
    // A block of another size is not handed out for it.
    Tensor other = Tensor::empty(Shape{4097});
    CHECK(other.rawData() != first);
}
#endif
