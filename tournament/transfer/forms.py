"""Forms of the event upload page's two steps: the export file (and a new web address), then who each person the
file names is here. They declare the fields (the file's size, the address's length, the accounts offered); the
rules are :mod:`tournament.transfer.services`'s (the file's checks, the accounts an organiser may give roles, a
free address), whose refusal lands next to its field (:func:`apply_user_error`)."""
from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from common.names import display_name
from tournament.form_fields import apply_user_error
from tournament.models import Event
from tournament.transfer import services
from tournament.transfer.people import mappable_accounts, read_people

MAX_UPLOAD = 50 * 1024 * 1024  # an event of a few thousand hands is a few megabytes
NEW = "new"  # the account choice "a new account"
#: The hidden field that marks the second step's post (the people), as the page's form sends it.
PEOPLE_STEP = "people"
SLUG_MAX = Event._meta.get_field("slug").max_length
#: The service's sentence for what the field's length catches first (the same msgid as ``services.check_slug``).
SLUG_MESSAGES = {"max_length": _("The web address may hold lower-case letters, digits and hyphens only.")}
REFUSED_ACCOUNT = _("This account cannot be given roles in the imported event: choose one from the list or a new "
                    "account.")


def _slug(placeholder=""):
    attrs = {"autocapitalize": "off", **({"placeholder": placeholder} if placeholder else {})}
    return forms.CharField(label=_("New web address (only if the event's own address is taken here)"),
                           max_length=SLUG_MAX, required=False, error_messages=SLUG_MESSAGES,
                           widget=forms.TextInput(attrs=attrs))


class UploadForm(forms.Form):
    """The first step: the export file, checked by the service before anything is kept."""

    file = forms.FileField(label=_("Export file (.json)"), required=False, allow_empty_file=True,
                           widget=forms.FileInput(attrs={"accept": ".json,application/json"}))
    slug = _slug()

    def __init__(self, *args, refused: UserError | None = None, **kwargs):
        """``refused``: the second step's refusal of the stored file (gone, or no longer readable): the first step
        is shown again with the posted address and that refusal next to its field."""
        super().__init__(*args, **kwargs)
        self.refused = refused

    def clean_file(self):
        """A file is required, and refused on its size before it is read into memory."""
        upload = self.cleaned_data["file"]
        if self.refused is not None:
            return upload
        if not upload:
            raise forms.ValidationError(_("Choose the export file (.json) to upload."), code="required")
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than %(mb)s MB: this is not an event export."),
                                        code="too_large", params={"mb": MAX_UPLOAD // (1024 * 1024)})
        return upload

    def clean(self):
        data = super().clean()
        if self.refused is not None:
            apply_user_error(self, self.refused)
        return data

    def read(self, by):
        """``(raw, data, people)``: the file's bytes, checked (``people.read_people``), and the people it names;
        None with the refusal next to its field."""
        raw = self.cleaned_data["file"].read()
        try:
            data, named = read_people(raw, by)
        except UserError as exc:
            apply_user_error(self, exc)
            return None
        return raw, data, named


class PeopleForm(forms.Form):
    """The second step: for each person of the file (``people``: ``people.Person``), an account here that
    ``by`` may give roles (``people.mappable_accounts``) or a new one; a person left out gets a new one."""

    people = forms.CharField(widget=forms.HiddenInput, initial="1", required=False)  # the step's mark
    slug = _slug()

    def __init__(self, *args, people=(), by, file_slug="", **kwargs):
        super().__init__(*args, **kwargs)
        self.named = list(people)
        if file_slug:
            self.fields["slug"].widget.attrs["placeholder"] = file_slug
        choices = [(NEW, _("A new account"))] + [
            (str(u.pk), gettext("%(name)s (you)") % {"name": display_name(u)} if u.pk == by.pk else display_name(u))
            for u in mappable_accounts(by)]
        for person in self.named:
            self.fields[person.field] = forms.ChoiceField(
                label=_("Account here"), required=False, choices=choices,
                initial=NEW if person.proposed is None else str(person.proposed),
                error_messages={"invalid_choice": REFUSED_ACCOUNT})

    def accounts(self) -> dict:
        """{file user id: the account chosen here, or None for a new account}."""
        chosen = {person.id: self.cleaned_data.get(person.field) for person in self.named}
        return {pid: None if value in ("", None, NEW) else int(value) for pid, value in chosen.items()}

    def save(self, raw, by):
        """The service's ``ImportReport`` (the event created), or None with the refusal next to its field."""
        try:
            return services.import_event(raw, slug=self.cleaned_data["slug"] or None, user=by,
                                         accounts=self.accounts())
        except UserError as exc:
            apply_user_error(self, exc)
            return None
