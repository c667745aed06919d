"""The printouts page's one form: which round or match a printout covers and its language, as the page (or
a download link) sends them. It reads them as typed; :class:`~tournament.printouts.common.PrintOptions` (the
command line's too) refuses an id that is not a whole number or a language it does not know, next to the field."""
from django import forms

from common.errors import UserError
from tournament.printouts.common import PrintOptions


class PrintOptionsForm(forms.Form):
    round = forms.CharField(required=False)
    match = forms.CharField(required=False)
    lang = forms.CharField(required=False)

    def options(self, site_url: str) -> PrintOptions:
        """The options asked for (UserError naming the bad field); ``site_url``: the address QR codes and
        printed links use, the one the request reached the site by."""
        if not self.is_valid():
            name, errors = next(iter(self.errors.items()))
            raise UserError("%(problem)s", None if name == "__all__" else name, problem=str(errors[0]))
        data = self.cleaned_data
        return PrintOptions(round=data["round"] or None, match=data["match"] or None,
                            lang=data["lang"] or "zh-hans", site_url=site_url)

    def typed(self, name: str) -> str:
        """What was sent for ``name`` (to show it again beside a refusal)."""
        return self[name].value() or ""
