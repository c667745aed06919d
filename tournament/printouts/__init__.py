"""PDF printouts (reportlab): brackets, schedules, score sheets, result sheets, standings, draws, awards.

``layout`` draws pages (header, footer, fonts); one module per kind collects its data and renders it;
``registry.PRINTOUTS`` maps each kind's name to its builder.
"""
