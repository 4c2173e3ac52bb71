// IDX reader. Every malformed input is a RuntimeError naming the file and what was wrong.
// SPDX-License-Identifier: MIT
#include "data/idx.h"

#include <cstdint>
#include <fstream>
#include <utility>
#include <vector>

namespace gradstep {

namespace {

std::vector<unsigned char> readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw RuntimeError(path + ": cannot open the file");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t bigEndian(const std::vector<unsigned char>& bytes, std::size_t offset)
{
    return static_cast<std::uint32_t>(bytes[offset]) << 24 | static_cast<std::uint32_t>(bytes[offset + 1]) << 16
           | static_cast<std::uint32_t>(bytes[offset + 2]) << 8 | static_cast<std::uint32_t>(bytes[offset + 3]);
}

void expectHeader(const std::string& path, const std::vector<unsigned char>& bytes, std::size_t headerBytes,
                  std::uint32_t magic)
{
    if (bytes.size() < headerBytes)
        throw RuntimeError(path + ": file too short for an IDX header (" + std::to_string(bytes.size()) + " bytes)");
    const std::uint32_t got = bigEndian(bytes, 0);
    if (got != magic)
        throw RuntimeError(path + ": IDX magic number " + std::to_string(got) + ", expected " + std::to_string(magic));
}

} // namespace

IdxBytes readIdxImageBytes(const std::string& path)
{
    auto bytes = readAll(path);
    expectHeader(path, bytes, 16, 0x803);
    const std::int64_t n = bigEndian(bytes, 4), rows = bigEndian(bytes, 8), cols = bigEndian(bytes, 12);
    const std::uint64_t need = 16 + static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(rows * cols);
    if (rows * cols > (1 << 24) || bytes.size() != need)
        throw RuntimeError(path + ": header says " + std::to_string(n) + " images of " + std::to_string(rows) + "x"
                           + std::to_string(cols) + " (" + std::to_string(need) + " bytes), file has "
                           + std::to_string(bytes.size()) + " bytes");
    bytes.erase(bytes.begin(), bytes.begin() + 16);
    return {{n, rows, cols}, std::move(bytes)};
}

IdxBytes readIdxLabelBytes(const std::string& path)
{
    auto bytes = readAll(path);
    expectHeader(path, bytes, 8, 0x801);
    const std::int64_t n = bigEndian(bytes, 4);
    if (bytes.size() != static_cast<std::size_t>(8 + n))
        throw RuntimeError(path + ": header says " + std::to_string(n) + " labels, file has "
                           + std::to_string(bytes.size() - 8));
    bytes.erase(bytes.begin(), bytes.begin() + 8);
    return {{n}, std::move(bytes)};
}

Tensor readIdxImages(const std::string& path)
{
    const IdxBytes raw = readIdxImageBytes(path);
    Tensor images = Tensor::empty(Shape{raw.dims[0], 1, raw.dims[1], raw.dims[2]}, DType::Float32);
    float* out = images.data<float>();
    for (std::size_t i = 0; i < raw.values.size(); ++i)
        out[i] = static_cast<float>(raw.values[i]) / 255.0f;
    return images;
}

Tensor readIdxLabels(const std::string& path)
{
    const IdxBytes raw = readIdxLabelBytes(path);
    Tensor labels = Tensor::empty(Shape{raw.dims[0]}, DType::Int32);
    std::int32_t* out = labels.data<std::int32_t>();
    for (std::size_t i = 0; i < raw.values.size(); ++i)
        out[i] = raw.values[i];
    return labels;
}

} // namespace gradstep
