# Writes the man page from the built binary's own help, so it cannot drift from it: help2man
# formats `gradstep --help` (and reads `--version`), then every command that `--help` lists gets
# its own section made by help2man from `gradstep COMMAND --help`.
# cmake -DGRADSTEP=path/to/gradstep -DHELP2MAN=path -DOUTPUT=gradstep.1 -P man_page.cmake
# SPDX-License-Identifier: MIT
foreach(variable GRADSTEP HELP2MAN OUTPUT)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "man_page.cmake: -D${variable}=... is required")
    endif()
endforeach()

set(name "debugger and visualizer of gradients in MindSpore-style training scripts")

# help2man's page for `gradstep ARGS`; fails the build on any error.
function(run_help2man args out)
    execute_process(COMMAND ${HELP2MAN} --no-info --section=1 --name=${name}
                            "--help-option=${args}" --version-option=--version ${GRADSTEP}
                    OUTPUT_VARIABLE page ERROR_VARIABLE errors RESULT_VARIABLE status)
    if(NOT status EQUAL 0 OR page STREQUAL "")
        message(FATAL_ERROR "help2man on 'gradstep ${args}' failed (${status}): ${errors}")
    endif()
    set(${out} "${page}" PARENT_SCOPE)
endfunction()

run_help2man("--help" page)

# The commands are the two-space-indented words under "commands:" in `gradstep --help`.
execute_process(COMMAND ${GRADSTEP} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "gradstep --help failed (${status})")
endif()
string(REGEX MATCH "\ncommands:\n(  [^\n]*\n)+" command_block "${help}")
string(REGEX MATCHALL "\n  [a-z]+ " command_lines "${command_block}")
if(NOT command_lines)
    message(FATAL_ERROR "gradstep --help lists no commands:\n${help}")
endif()

string(APPEND page ".SH COMMANDS\n")
foreach(line IN LISTS command_lines)
    string(STRIP "${line}" command)
    execute_process(COMMAND ${GRADSTEP} ${command} --help
                    OUTPUT_VARIABLE command_help RESULT_VARIABLE status)
    # A command without options of its own (`ops`) does not answer --help with a usage line.
    if(NOT status EQUAL 0 OR NOT command_help MATCHES "^usage: ")
        continue()
    endif()
    run_help2man("${command} --help" command_page)
    # Keep help2man's DESCRIPTION body; its first line is the usage line, set apart from the
    # text that may follow it directly.
    string(FIND "${command_page}" ".SH DESCRIPTION\n" start)
    math(EXPR start "${start} + 16")
    string(SUBSTRING "${command_page}" ${start} -1 body)
    string(FIND "${body}" "\n" usage_end)
    math(EXPR usage_end "${usage_end} + 1")
    string(SUBSTRING "${body}" 0 ${usage_end} usage)
    string(SUBSTRING "${body}" ${usage_end} -1 rest)
    if(NOT rest MATCHES "^\\.")
        set(rest ".br\n${rest}")
    endif()
    set(body "${usage}${rest}")
    string(REPLACE ".SS \"options:\"" ".PP\n.I options:" body "${body}")
    string(APPEND page ".SS \"gradstep ${command}\"\n${body}")
endforeach()

string(APPEND page ".SH FILES\n.TP\n.I /usr/share/gradstep/samples\n"
    "the sample scripts (each headed by what it teaches) and the handwritten digits they train on; "
    "\\fBgradstep gui\\fR without a script opens lenet5_digits.py from here. A gradstep installed "
    "as PREFIX/bin/gradstep looks in PREFIX/share/gradstep/samples.\n")
string(APPEND page ".SH EXIT STATUS\n0 success, 1 script error (a FILE:LINE:COL diagnostic on "
    "standard error), 2 bad usage, 130 interrupted with Ctrl\\-C.\n")
file(WRITE ${OUTPUT} "${page}")
