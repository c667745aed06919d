"""URLs: the organiser's printouts page of an event, downloads and background print jobs."""
from django.urls import path

from tournament.printouts import views as views

urlpatterns = [
    path("manage/<slug:event_slug>/printouts/", views.printouts_page, name="printouts"),
    path("manage/<slug:event_slug>/printouts/jobs/<int:job_id>/", views.printout_job_status,
         name="printout_job_status"),
    path("manage/<slug:event_slug>/printouts/jobs/<int:job_id>/file/", views.printout_job_file,
         name="printout_job_file"),
    path("manage/<slug:event_slug>/printouts/<slug:kind>.pdf", views.printout_download, name="printout_download"),
    path("manage/<slug:event_slug>/printouts/<slug:kind>/jobs/", views.printout_job_create,
         name="printout_job_create"),
]
