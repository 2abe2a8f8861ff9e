# What an operator reads first: the errors a newcomer hits (no token, a
# config problem, a database refused) and the start-up lines. Logs stay
# English.

operator-error-prefix = error
