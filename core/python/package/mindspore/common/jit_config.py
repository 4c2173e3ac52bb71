"""mindspore.JitConfig: the options of a graph-mode compile (jit_level, exc_mode,
jit_syntax_level) as MindSpore 2.2 validates them. gradstep compiles one way whatever the level,
so the options change no value a script computes; they are kept for Cell.jit_config_dict."""
import mindspore

__all__ = ["JitConfig"]


class JitConfig:
    def __init__(self, jit_level="O1", exc_mode="auto", jit_syntax_level="", **kwargs):
        if jit_level not in ("O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError("For 'jit_syntax_level' must be one of '['STRICT', 'LAX']'.")
        self.jit_config_dict = dict(kwargs)
        self.jit_config_dict.update(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level)

    def __repr__(self):
        return "JitConfig(%s)" % ", ".join("%s=%r" % item for item in self.jit_config_dict.items())


if not hasattr(mindspore, "JitConfig"):
    mindspore.JitConfig = JitConfig
