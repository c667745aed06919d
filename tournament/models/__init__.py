"""The tournament app's models, one module per area, re-exported here (``from tournament.models import Match``)."""
from tournament.models.clocks import *  # noqa: F401,F403
from tournament.models.competition import *  # noqa: F401,F403
from tournament.models.entries import *  # noqa: F401,F403
from tournament.models.event import *  # noqa: F401,F403
from tournament.models.leads import *  # noqa: F401,F403
from tournament.models.printouts import *  # noqa: F401,F403
from tournament.models.registration import *  # noqa: F401,F403
from tournament.models.removals import *  # noqa: F401,F403
from tournament.models.selfscore import *  # noqa: F401,F403
from tournament.models.staff import *  # noqa: F401,F403
from tournament.models.standings import *  # noqa: F401,F403
