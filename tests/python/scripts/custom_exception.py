# expect error: 7:5: ConfigError: no optimizer
class ConfigError(Exception):
    pass


def build():
    raise ConfigError("no optimizer")


build()
