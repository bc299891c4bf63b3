# what: os.environ through the sys that collections imports
# expect: contain
# status: violation
# reason: collections.sys is not available in the sandbox
import collections


def attack(state, path=None, envvar=None):
    collections.sys.modules['os'].environ[envvar] = '1'
