// MNIST directory reader over the IDX reader. SPDX-License-Identifier: MIT
#include "data/mnist.h"

#include "data/idx.h"

#include <cstring>
#include <filesystem>
#include <vector>

namespace gradstep::data {

namespace {

namespace fs = std::filesystem;

/// The first of the known names for one file of one split that exists in `directory`, or empty;
/// `tried` lists the names looked for.
std::string lookUpFile(const fs::path& directory, const std::string& split, const std::string& kind,
                       std::string& tried)
{
    // kind is "images-idx3-ubyte" or "labels-idx1-ubyte".
    const std::string dotted = kind.substr(0, 6) + "." + kind.substr(7);
    const std::vector<std::string> prefixes =
        split == "train" ? std::vector<std::string>{"train-", "digits-train-"} : std::vector<std::string>{"t10k-", "digits-test-"};
    for (const auto& prefix : prefixes) {
        for (const auto& name : {prefix + kind, prefix + dotted}) {
            const fs::path path = directory / name;
            std::error_code error;
            if (fs::is_regular_file(path, error))
                return path.string();
            tried += (tried.empty() ? "" : ", ") + name;
        }
    }
    return {};
}

std::string findFile(const fs::path& directory, const std::string& split, const std::string& kind)
{
    std::string tried;
    std::string path = lookUpFile(directory, split, kind, tried);
    if (!path.empty())
        return path;
    throw ValueError("MnistDataset: no " + split + " " + kind.substr(0, 6) + " file in '" + directory.string()
                     + "' (looked for " + tried + ")");
}

// usage 'all' (MindSpore's default, None) reads the splits the directory holds: the quick start's
// MnistDataset('MNIST_Data/train') finds only the train files there.
bool holdsSplit(const fs::path& directory, const std::string& split)
{
    std::string tried;
    return !lookUpFile(directory, split, "images-idx3-ubyte", tried).empty();
}

struct Split {
    IdxBytes images;
    IdxBytes labels;
};

Split readSplit(const fs::path& directory, const std::string& split)
{
    const std::string imagePath = findFile(directory, split, "images-idx3-ubyte");
    const std::string labelPath = findFile(directory, split, "labels-idx1-ubyte");
    Split out{readIdxImageBytes(imagePath), readIdxLabelBytes(labelPath)};
    if (out.images.dims[0] != out.labels.dims[0])
        throw ValueError("MnistDataset: '" + imagePath + "' has " + std::to_string(out.images.dims[0])
                         + " images but '" + labelPath + "' has " + std::to_string(out.labels.dims[0]) + " labels");
    return out;
}

} // namespace

std::shared_ptr<const Table> readMnist(const std::string& directory, const std::string& usage)
{
    if (usage != "train" && usage != "test" && usage != "all")
        throw ValueError("MnistDataset: usage must be 'train', 'test' or 'all', got '" + usage + "'");
    std::error_code error;
    if (!fs::is_directory(directory, error))
        throw ValueError("MnistDataset: dataset_dir '" + directory + "' is not a directory");
    std::vector<Split> splits;
    const bool all = usage == "all";
    const bool train = usage == "train" || (all && holdsSplit(directory, "train"));
    const bool test = usage == "test" || (all && holdsSplit(directory, "test"));
    if (all && !train && !test)
        throw ValueError("MnistDataset: no MNIST images file in '" + directory
                         + "' (looked for train-images-idx3-ubyte and t10k-images-idx3-ubyte)");
    if (train)
        splits.push_back(readSplit(directory, "train"));
    if (test)
        splits.push_back(readSplit(directory, "test"));
    const std::int64_t rows = splits.front().images.dims[1], cols = splits.front().images.dims[2];
    std::int64_t count = 0;
    std::vector<unsigned char> pixels;
    std::vector<std::uint32_t> labels;
    for (const Split& split : splits) {
        if (split.images.dims[1] != rows || split.images.dims[2] != cols)
            throw ValueError("MnistDataset: train images are " + std::to_string(rows) + "x" + std::to_string(cols)
                             + " but test images are " + std::to_string(split.images.dims[1]) + "x"
                             + std::to_string(split.images.dims[2]) + " in '" + directory + "'");
        count += split.images.dims[0];
        pixels.insert(pixels.end(), split.images.values.begin(), split.images.values.end());
        labels.insert(labels.end(), split.labels.values.begin(), split.labels.values.end());
    }
    std::vector<unsigned char> labelBytes(labels.size() * sizeof(std::uint32_t));
    if (!labels.empty())
        std::memcpy(labelBytes.data(), labels.data(), labelBytes.size());
    std::vector<Array> columns;
    columns.emplace_back(kUInt8, Shape{count, rows, cols, 1}, std::move(pixels));
    columns.emplace_back(kUInt32, Shape{count}, std::move(labelBytes));
    return std::make_shared<Table>(std::move(columns));
}

} // namespace gradstep::data
