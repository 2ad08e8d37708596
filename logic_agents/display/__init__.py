"""What a person sees on a terminal: boards as rich Text (terminal), a study's progress
(progress), human play (human, and the Textual app in tui), and plots of a summary (plot).
The game pages are web's.
"""
