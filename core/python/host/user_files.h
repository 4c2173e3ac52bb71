// Which source files are the user's: the script and everything under its directory, except
// installed packages there (a virtualenv beside the script). Diagnostics and source locations
// point into these files only. No Python header here. SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gradstep::python {

class UserFiles {
public:
    UserFiles() = default;
    /// `script` as the user gave it (relative to the working directory or absolute).
    explicit UserFiles(const std::filesystem::path& script);

    /// True for absolute paths of the user's files (Python's co_filename / __file__).
    bool contains(std::string_view file) const;
    /// How diagnostics print `file`: the script as given, its neighbours relative to the same
    /// directory ("samples/helper.py"), anything else unchanged.
    std::string display(std::string_view file) const;

    const std::string& script() const { return m_script; }     ///< absolute
    const std::string& directory() const { return m_directory; } ///< absolute, no trailing '/'

private:
    std::string m_script;
    std::string m_directory;
    std::string m_given;    ///< the script path as given
    std::string m_givenDir; ///< its directory as given, with a trailing '/' unless empty
};

/// The user's frames on the calling thread's Python stack (0 without the GIL): how deep the
/// script is in its own code. StepOver and StepOut compare it.
int userFrameDepth(const UserFiles& files);

} // namespace gradstep::python
