"""The ground floor: what every layer of logic-agents may use and which uses none of them.

Concepts: processes (how children are forked, stopped and made to die with their parent).
"""
